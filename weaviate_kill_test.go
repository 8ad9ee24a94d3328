//go:build weaviate

package medkb

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/shareddata"
)

// TestWeaviateSurvivesNodeKill kills one of three nodes (kill -9) in the
// middle of a stream of queries on a store replicated three times, writes
// while it is down, starts it again and checks that every node then
// serves every chunk of the store. It needs the directory of a cluster
// that index/weaviate/cluster.sh started ($MEDKB_WEAVIATE_CLUSTER_DIR),
// to kill and restart a node.
func TestWeaviateSurvivesNodeKill(t *testing.T) {
	nodes := clusterNodes(t)
	cdir := os.Getenv("MEDKB_WEAVIATE_CLUSTER_DIR")
	if cdir == "" {
		t.Skip("set MEDKB_WEAVIATE_CLUSTER_DIR to the directory of a cluster.sh cluster (this test kills and restarts its node 1)")
	}
	docs := nfcorpusDocs(t)
	db, err := Open(filepath.Join(t.TempDir(), "kb"), &Options{Backend: BackendWeaviate, Weaviate: WeaviateOptions{Nodes: nodes, Replicas: 3}})
	if err != nil {
		t.Fatal(err)
	}
	checked(t, db)
	dropAfter(t, db.cur.remote.spec)
	ctx := context.Background()
	start := time.Now()
	half := len(docs) / 2
	if _, err := db.Ingest(ctx, docs[:half]); err != nil {
		t.Fatal(err)
	}
	t.Logf("ingested %d documents, replicated 3 times, in %v", half, time.Since(start))

	var ok, failed atomic.Int64
	var firstErr atomic.Value
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			for i := w; ; i += 2 {
				select {
				case <-stop:
					return
				default:
				}
				d := docs[i%len(docs)]
				q := fmt.Sprintf(`RETRIEVE %q LIMIT 10`, strings.Join(strings.Fields(d.Text)[:min(8, len(strings.Fields(d.Text)))], " "))
				if _, err := db.Query(ctx, q); err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
				} else {
					ok.Add(1)
				}
			}
		})
	}
	time.Sleep(3 * time.Second)
	pid := readPid(t, filepath.Join(cdir, "node1.pid"))
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	t.Logf("killed node 1 (pid %d) after %d queries", pid, ok.Load())
	time.Sleep(2 * time.Second)
	res, err := db.Ingest(ctx, docs[half:])
	if err != nil || res.IndexErr != nil {
		t.Fatalf("ingest with node 1 down: %v %v", err, res.IndexErr)
	}
	t.Logf("ingested %d more documents with node 1 down", len(docs)-half)
	time.Sleep(3 * time.Second)
	script, _ := filepath.Abs("index/weaviate/cluster.sh")
	if out, err := exec.Command(script, "start-node", cdir, "1").CombinedOutput(); err != nil {
		t.Fatalf("restarting node 1: %v\n%s", err, out)
	}
	t.Logf("node 1 restarted after %d queries", ok.Load())
	time.Sleep(3 * time.Second)
	close(stop)
	wg.Wait()
	t.Logf("%d queries answered, %d failed", ok.Load(), failed.Load())
	if failed.Load() > 0 {
		t.Errorf("%d queries failed, the first: %v", failed.Load(), firstErr.Load())
	}

	// The replay check: every node serves every chunk of the store.
	m, err := db.cur.st.Meta()
	if err != nil {
		t.Fatal(err)
	}
	ch, err := db.cur.st.Replay(0)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]uint64, len(ch.Added))
	for i, a := range ch.Added {
		want[i] = a.Chunk.Ord
	}
	deadline := time.Now().Add(3 * time.Minute)
	for n := range 3 {
		for {
			got, err := db.cur.remote.ix.Ords(ctx, n)
			slices.Sort(got)
			if err == nil && slices.Equal(got, want) {
				t.Logf("node %d serves all %d chunks (store seq %d, backend seq %d)", n, len(want), m.Seq, m.BackendSeq)
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("node %d serves %d of %d chunks: %v", n, len(got), len(want), err)
			}
			time.Sleep(5 * time.Second)
		}
	}
}

func readPid(t *testing.T, path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// nfcorpusDocs reads NFCorpus's test documents, or skips.
func nfcorpusDocs(t *testing.T) []Doc {
	ids, texts := shareddata.ReadTSV(t, shareddata.Path(t, "nfcorpus", "test.docs"))
	docs := make([]Doc, len(ids))
	for i := range ids {
		docs[i] = Doc{ID: ids[i], Text: texts[i]}
	}
	return docs
}
