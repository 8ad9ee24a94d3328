//go:build linux

package medkb

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/store"
)

// The memory benchmark's environment: the store directory (kept across
// runs: building 1M chunks takes minutes), and, in the child process
// that measures, the Quantize to open it with.
const (
	envMemDir      = "MEDKB_MEM_BENCH_DIR"
	envMemQuantize = "MEDKB_MEM_CHILD_QUANTIZE"
	memChunks      = 1_000_000
)

// BenchmarkOpenMemory1Mx384 is the resident memory of a read-only DB
// over a store of 1M chunks with 384-dimensional vectors, held as f32 and
// as int8, after opening it and running 200 top-10 vector searches (the
// int8 ones rescoring from the store file). Each is measured in a child
// process of its own (this test binary, TestOpenMemoryChild), which
// reports its VmRSS and VmHWM from /proc/self/status, so that building
// the store does not count. The store is built once in
// $MEDKB_MEM_BENCH_DIR (about 2 GB); the benchmark skips without it.
func BenchmarkOpenMemory1Mx384(b *testing.B) {
	dir := os.Getenv(envMemDir)
	if dir == "" {
		b.Skipf("set %s to a directory for a 1M-chunk store (about 2 GB)", envMemDir)
	}
	dir = filepath.Join(dir, "kb")
	if _, err := os.Stat(dir); err != nil {
		buildMemStore(b, dir)
	}
	for _, q := range []string{QuantizeF32, QuantizeInt8} {
		b.Run(q, func(b *testing.B) {
			var rss, hwm float64
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^TestOpenMemoryChild$", "-test.v")
				cmd.Env = append(os.Environ(), envMemQuantize+"="+q)
				out, err := cmd.CombinedOutput()
				if err != nil {
					b.Fatalf("child: %v\n%s", err, out)
				}
				if _, err := fmt.Sscanf(string(out[max(0, strings.Index(string(out), "rss ")):]), "rss %g MB hwm %g MB", &rss, &hwm); err != nil {
					b.Fatalf("child output: %s", out)
				}
			}
			b.ReportMetric(rss, "MB-rss")
			b.ReportMetric(hwm, "MB-peak")
		})
	}
}

// TestOpenMemoryChild is BenchmarkOpenMemory1Mx384's child; it does
// nothing unless that benchmark started it.
func TestOpenMemoryChild(t *testing.T) {
	q := os.Getenv(envMemQuantize)
	if q == "" {
		t.Skip("run by BenchmarkOpenMemory1Mx384")
	}
	db, err := Open(filepath.Join(os.Getenv(envMemDir), "kb"), &Options{ReadOnly: true, Quantize: q})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(5, 5))
	for range 200 {
		if hits := db.cur.vec.Search(unitVector(rng, 384), 10, nil); len(hits) != 10 {
			t.Fatalf("%d hits", len(hits))
		}
	}
	status := map[string]float64{}
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb float64
		name, rest, _ := strings.Cut(sc.Text(), ":")
		if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%g kB", &kb); err == nil {
			status[name] = kb
		}
	}
	t.Logf("rss %.1f MB hwm %.1f MB (anon %.1f MB, file %.1f MB)", status["VmRSS"]/1024, status["VmHWM"]/1024,
		status["RssAnon"]/1024, status["RssFile"]/1024)
}

func unitVector(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for !vector.Normalize(v) {
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
	}
	return v
}

// buildMemStore writes memChunks one-chunk documents with random unit
// vectors straight into a store (no BM25 index: the benchmark only
// searches vectors), recorded as the built-in embedder's so Open accepts
// them.
func buildMemStore(tb testing.TB, dir string) {
	st, err := store.Open(dir, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	rng := rand.New(rand.NewPCG(4, 4))
	const batch = 8192
	for first := 0; first < memChunks; first += batch {
		b := &store.Batch{Embedder: embed.NewHash(384).Name(), Dim: 384}
		for i := first; i < min(first+batch, memChunks); i++ {
			w := store.DocWrite{Doc: base.Doc{ID: fmt.Sprintf("d%07d", i), Text: "x", Tier: base.T4}, Day: base.NoDay}
			w.Chunks = []base.Chunk{{Text: "x", TokensA: 1, Tier: base.T4, NTotal: 1}}
			w.Vectors = unitVector(rng, 384)
			b.Put = append(b.Put, w)
		}
		if _, err := st.Write(b); err != nil {
			tb.Fatal(err)
		}
	}
}
