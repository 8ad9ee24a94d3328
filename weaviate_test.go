//go:build weaviate

package medkb

import (
	"cmp"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/medkb/medkb/index/weaviate"
)

// clusterNodes returns the nodes of a running cluster
// ($MEDKB_WEAVIATE_NODES, else cluster.sh's), skipping the test when a
// node does not answer.
func clusterNodes(t *testing.T) string {
	t.Helper()
	addrs := cmp.Or(os.Getenv("MEDKB_WEAVIATE_NODES"), weaviate.LocalNodes)
	nodes, err := weaviate.ParseNodes(addrs)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := errors.Join(weaviate.Ready(ctx, nodes)...); err != nil {
		t.Skipf("no Weaviate cluster (%v): start one with index/weaviate/cluster.sh start DIR, or set MEDKB_WEAVIATE_NODES", err)
	}
	return addrs
}

// openWeaviate opens a new sample store on the cluster, with its
// collections dropped when the test ends.
func openWeaviate(t *testing.T, replicas int) *DB {
	nodes := clusterNodes(t)
	db := openSampleWith(t, &Options{Backend: BackendWeaviate, Weaviate: WeaviateOptions{Nodes: nodes, Replicas: replicas}})
	dropAfter(t, db.cur.remote.spec)
	return db
}

// dropAfter drops the collections of a store's first two generations
// when the test ends.
func dropAfter(t *testing.T, spec backendSpec) {
	t.Cleanup(func() {
		r, err := openRemote(spec, "gen-000001", "")
		if err != nil {
			t.Fatal(err)
		}
		for _, gen := range []string{"gen-000001", "gen-000002"} {
			if err := r.ix.Drop(context.Background(), spec.collection(gen)); err != nil {
				t.Error(err)
			}
		}
	})
}

// TestWeaviateBackendAnswersAsEmbedded: the vector arm is exact on a flat
// index, so its ranking is the embedded one; BM25 matches the same chunks
// (the same terms), scored by another formula.
func TestWeaviateBackendAnswersAsEmbedded(t *testing.T) {
	wdb := openWeaviate(t, 1)
	edb := openSample(t)
	for _, q := range []string{"chest pain troponin", "患者发热", "penicillin allergy anaphylaxis"} {
		for _, where := range []string{"", `WHERE tier IN (T1, T2)`, `WHERE patient != "P001"`, `WHERE time >= "2020-01-01"`} {
			vq := `RETRIEVE "` + q + `" USING vector(k=20) ` + where + ` LIMIT 20`
			if w, e := items(t, wdb, vq), items(t, edb, vq); !slices.Equal(w, e) {
				t.Errorf("%s:\nweaviate %v\nembedded %v", vq, w, e)
			}
			bq := `RETRIEVE "` + q + `" USING bm25(k=200) ` + where + ` LIMIT 200`
			w, e := items(t, wdb, bq), items(t, edb, bq)
			slices.Sort(w)
			slices.Sort(e)
			if !slices.Equal(w, e) {
				t.Errorf("%s: chunks differ:\nweaviate %v\nembedded %v", bq, w, e)
			}
		}
	}
	st, err := wdb.Stats()
	if err != nil || st.Backend != "weaviate (flat, 1 replicas)" {
		t.Errorf("stats: %+v %v", st, err)
	}
	plan, err := wdb.Explain(context.Background(), `EXPLAIN RETRIEVE "fever" WHERE meta.dept = "x"`)
	if err != nil || !strings.Contains(plan, "on=weaviate") || strings.Contains(plan, "post-filter") {
		t.Errorf("explain: %v\n%s", err, plan)
	}
}

// TestWeaviateReplayAfterOutage: with the cluster unreachable a write is
// committed to bbolt and reported behind; the next open replays it.
func TestWeaviateReplayAfterOutage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, &Options{Backend: BackendWeaviate, Weaviate: WeaviateOptions{Nodes: clusterNodes(t)}})
	if err != nil {
		t.Fatal(err)
	}
	dropAfter(t, db.cur.remote.spec)
	if err := LoadSample(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	before, _ := db.Stats()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	dead := "http://127.0.0.1:9?grpc=9"
	db2, err := Open(dir, &Options{Weaviate: WeaviateOptions{Nodes: dead}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := db2.Ingest(context.Background(), []Doc{{ID: "new-1", Text: "Troponin rose after the second infusion."}})
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res.IndexErr, ErrBackendBehind) || !strings.Contains(res.IndexErr.Error(), "http://127.0.0.1:9") {
		t.Errorf("ingest with the cluster down: IndexErr %v", res.IndexErr)
	}
	if _, err := db2.Query(context.Background(), `RETRIEVE "troponin"`); !errors.Is(err, ErrBackendBehind) {
		t.Errorf("query while behind: %v", err)
	}
	if st, _ := db2.Stats(); st.Docs != before.Docs+1 {
		t.Errorf("bbolt lost the write: %d docs, had %d", st.Docs, before.Docs)
	}
	db2.Close()
	db3, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db3.Close()
	if got := items(t, db3, `RETRIEVE "troponin infusion" USING bm25(k=5) LIMIT 5`); !slices.Contains(got, "new-1#0") {
		t.Errorf("after replay: %v", got)
	}
	m, _ := db3.cur.st.Meta()
	ords, err := db3.cur.remote.ix.Ords(context.Background(), 0)
	if err != nil || len(ords) != m.Chunks || m.BackendSeq != m.Seq {
		t.Errorf("collection holds %d chunks (%v), store %d; backend seq %d, store %d", len(ords), err, m.Chunks, m.BackendSeq, m.Seq)
	}
}

func TestWeaviateRebuildSwitchesAlias(t *testing.T) {
	db := openWeaviate(t, 1)
	res, err := db.Rebuild(context.Background(), &RebuildOptions{Grace: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if got := items(t, db, `RETRIEVE "chest pain" USING bm25(k=3) LIMIT 3`); len(got) == 0 {
		t.Error("no hits after rebuild")
	}
	spec := db.cur.remote.spec
	if db.cur.remote.ix.Options().Collection != spec.collection(res.To) {
		t.Errorf("queries read %s after the rebuild to %s", db.cur.remote.ix.Options().Collection, res.To)
	}
	r, _ := openRemote(spec, res.To, "")
	if prev, err := r.ix.Publish(context.Background()); err != nil || prev != spec.collection(res.To) {
		t.Errorf("alias named %q (%v), want %s", prev, err, spec.collection(res.To))
	}
}

func TestWeaviateChoiceIsKept(t *testing.T) {
	nodes := clusterNodes(t)
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Ingest(context.Background(), []Doc{{ID: "a", Text: "fever"}}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(dir, &Options{Backend: BackendWeaviate, Weaviate: WeaviateOptions{Nodes: nodes}}); !errors.Is(err, ErrBackendMismatch) {
		t.Errorf("an embedded store opened as weaviate: %v", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "kb"), &Options{Backend: BackendWeaviate, Weaviate: WeaviateOptions{Nodes: "http://127.0.0.1:9?grpc=9"}}); !errors.Is(err, weaviate.ErrUnavailable) || !strings.Contains(err.Error(), "127.0.0.1:9") {
		t.Errorf("creating on a dead cluster: %v", err)
	}
}

// TestWeaviateDropBackend: DropBackend removes the live collection from
// the cluster; dropping again is a no-op;
// opening the store read-write again makes the collection afresh and
// replays every chunk, though the store had recorded them as sent.
func TestWeaviateDropBackend(t *testing.T) {
	ctx := context.Background()
	opts := &Options{Backend: BackendWeaviate, Weaviate: WeaviateOptions{Nodes: clusterNodes(t)}}
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	dropAfter(t, db.cur.remote.spec)
	docs := []Doc{{ID: "d1", Text: "Chest pain since this morning, troponin 2.3 ng/mL."}, {ID: "d2", Text: "Allergic to penicillin: anaphylaxis."}}
	if _, err := db.Ingest(ctx, docs); err != nil {
		t.Fatal(err)
	}
	const q = `RETRIEVE "chest pain troponin" LIMIT 3`
	before := items(t, db, q)
	if len(before) == 0 {
		t.Fatal("no items before the drop")
	}
	if err := db.DropBackend(ctx); err != nil {
		t.Fatal(err)
	}
	// A query now fails, or finds nothing on a node that has yet to
	// apply the schema change: either way it must not be trusted, which
	// DropBackend's doc says.
	if err := db.DropBackend(ctx); err != nil {
		t.Errorf("second drop: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if after := items(t, db, q); !slices.Equal(after, before) {
		t.Errorf("after reopening: %v, want %v (the collection refilled)", after, before)
	}
}
