package bm25

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/medkb/medkb/internal/base"
)

// BenchmarkApply measures ingest: one durable Apply of fresh chunks per
// iteration into a growing index, for a few batch sizes. It reports docs/s
// and the process CPU time per chunk, background merging included; on a
// busy machine the latter bounds what an idle one could do.
func BenchmarkApply(b *testing.B) {
	model := newTextModel(b)
	for _, size := range []int{100, benchBatch, 5 * benchBatch} {
		b.Run(fmt.Sprintf("batch=%d", size), func(b *testing.B) {
			ix := openTemp(b)
			r := rand.New(rand.NewPCG(3, 4))
			batches := make([][]Doc, 8)
			for i := range batches {
				batches[i] = model.docs(r, 0, size)
			}
			cpu0 := processCPU(b)
			b.ResetTimer()
			for i := range b.N {
				docs := batches[i%len(batches)]
				for j := range docs {
					docs[j].Ord = uint64(i*size + j)
				}
				if err := ix.Apply(uint64(i+1), nil, docs); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*size)/b.Elapsed().Seconds(), "docs/s")
			b.ReportMetric(float64((processCPU(b)-cpu0).Microseconds())/float64(b.N*size), "cpu-µs/doc")
		})
	}
}

// BenchmarkSearch measures warm top-50 BM25 searches on the 100k-chunk
// index, as ingested and compacted, and reports latency percentiles.
func BenchmarkSearch(b *testing.B) {
	cases := []struct {
		name   string
		filter base.Filter
	}{
		{"nofilter", nil},
		{"filtered", base.Filter{cond(base.FieldTier, base.OpIn, "T1", "T2"), cond(base.FieldTime, base.OpGe, "2000-01-01")}},
		{"patient", base.Filter{cond(base.FieldPatient, base.OpEq, "P042")}},
	}
	for _, state := range []string{"ingested", "compacted"} {
		for _, bc := range cases {
			b.Run(state+"/"+bc.name, func(b *testing.B) { benchSearch(b, state == "compacted", bc.filter) })
		}
	}
}

func benchSearch(b *testing.B, compacted bool, filter base.Filter) {
	dir, model := sharedIndex(b, compacted)
	ix, err := Open(dir, &Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	ctx := context.Background()
	for _, q := range model.queries { // warm up
		if _, err := ix.Search(ctx, q, 50, filter); err != nil {
			b.Fatal(err)
		}
	}
	// Besides wall time, take each query's CPU time on its own
	// thread: on a busy machine its median approximates the
	// latency on an idle one.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	lat := make([]time.Duration, 0, b.N)
	cpu := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start, startCPU := time.Now(), threadCPU(b)
		if _, err := ix.Search(ctx, model.queries[i%len(model.queries)], 50, filter); err != nil {
			b.Fatal(err)
		}
		cpu = append(cpu, threadCPU(b)-startCPU)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	slices.Sort(cpu)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(cpu[len(cpu)/2].Microseconds()), "p50-cpu-µs")
}

// BenchmarkSearchStore measures top-50 BM25 searches, unfiltered, on the
// BM25 index of an existing store (MEDKB_BM25_STORE, a store's
// gen-NNNNNN/bm25 directory; skipped when unset), with the query texts of
// the RETRIEVE statements in MEDKB_BM25_QUERIES (by default the pipeline
// statements, testdata/bench/pipeline.txt), taken in turn. It reports
// wall and thread-CPU percentiles: on a shared machine the CPU times show
// what the search costs, the wall times also what it waited for a core.
func BenchmarkSearchStore(b *testing.B) {
	dir := os.Getenv("MEDKB_BM25_STORE")
	if dir == "" {
		b.Skip("MEDKB_BM25_STORE not set")
	}
	file := os.Getenv("MEDKB_BM25_QUERIES")
	if file == "" {
		file = filepath.Join("..", "..", "testdata", "bench", "pipeline.txt")
	}
	src, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	var queries []string
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), `RETRIEVE "`); ok {
			if q, _, ok := strings.Cut(rest, `"`); ok {
				queries = append(queries, q)
			}
		}
	}
	if len(queries) == 0 {
		b.Fatalf("%s holds no RETRIEVE statement", file)
	}
	ix, err := Open(dir, &Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	ctx := context.Background()
	for _, q := range queries { // warm up
		if _, err := ix.Search(ctx, q, 50, nil); err != nil {
			b.Fatal(err)
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	lat := make([]time.Duration, 0, b.N)
	cpu := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		start, startCPU := time.Now(), threadCPU(b)
		if _, err := ix.Search(ctx, queries[i%len(queries)], 50, nil); err != nil {
			b.Fatal(err)
		}
		cpu = append(cpu, threadCPU(b)-startCPU)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	slices.Sort(cpu)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(cpu[len(cpu)/2].Microseconds()), "p50-cpu-µs")
	b.ReportMetric(float64(cpu[len(cpu)*99/100].Microseconds()), "p99-cpu-µs")
}

// processCPU returns the CPU time used by the process so far, background
// work (analysis workers, persister, merger) included.
func processCPU(b *testing.B) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ts.Nano())
}

// threadCPU returns the CPU time used by the calling thread.
func threadCPU(b *testing.B) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ts.Nano())
}

// BenchmarkOpen measures opening the 100k-chunk index (and reading its
// Seq). Only the compacted copy is opened read-write, since a writer may
// merge the other and change what the search benchmarks measure.
func BenchmarkOpen(b *testing.B) {
	for _, bc := range []struct {
		name          string
		compacted, ro bool
	}{
		{"ingested/readonly", false, true},
		{"compacted/readonly", true, true},
		{"compacted/readwrite", true, false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			dir, _ := sharedIndex(b, bc.compacted)
			ro := bc.ro
			b.ResetTimer()
			for range b.N {
				ix, err := Open(dir, &Options{ReadOnly: ro})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := ix.Seq(); err != nil {
					b.Fatal(err)
				}
				if err := ix.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
