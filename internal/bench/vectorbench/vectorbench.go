package vectorbench

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/internal/base"
	"github.com/viterin/vek/vek32"
)

// Config says what Run measures.
type Config struct {
	N, Dim, Queries int         // slab size, dimension, timed queries; below 1 counts as 1
	Scan            vector.Scan // ScanF32 or ScanInt8 (ScanDefault is f32)
	// Slab and Qs, when set, are the vectors (N x Dim, normalised) and
	// queries to use instead of random ones; see Embedded.
	Slab, Qs []float32
}

// Result is the outcome of Run.
type Result struct {
	Kernel       string  // the scan's kernel, e.g. "avx2-fma f32" or "avx2 int8"
	MsPerQuery   float64 // median wall time of one exact top-10 search
	GBPerS       float64 // bytes scanned per second at the median
	Bandwidth    float64 // measured streaming read bandwidth, GB/s
	FloorMs      float64 // bytes scanned / Bandwidth
	Ratio        float64 // MsPerQuery / FloorMs
	BytesScanned int64   // the slab's bytes: floats, or int8 codes
	CodesRead    int64   // int8: the median bytes of codes a query reads (see vector.CodeBytesRead)
	Rescore      int     // int8 candidates rescored exactly (0 for f32)
	Recall       float64 // mean recall@10 against the exact f32 scan (1 for f32)
}

// Run builds the slab, measures the bandwidth, and times cfg.Queries
// top-10 searches with cfg.Scan after one untimed warm-up.
func Run(cfg Config) Result {
	n, dim, queries := max(1, cfg.N), max(1, cfg.Dim), max(1, cfg.Queries)
	rng := rand.New(rand.NewPCG(1, 2))
	vecs, qs := cfg.Slab, cfg.Qs
	if vecs == nil {
		vecs = unitVectors(rng, n, dim)
	}
	if qs == nil {
		qs = unitVectors(rng, queries, dim)
	}
	n, queries = len(vecs)/dim, len(qs)/dim
	slots := make([]base.Slot, n)
	for i := range slots {
		slots[i] = base.Slot{Ord: uint64(i), Alive: true}
	}
	exact := vector.New(dim)
	if err := exact.Load(slots, vecs); err != nil {
		panic("vectorbench: Run built an invalid slab: " + err.Error())
	}
	ix, scan := exact, vector.ScanF32
	r := Result{Kernel: vector.KernelName(vector.ScanF32, dim), BytesScanned: int64(n) * int64(dim) * 4, Recall: 1}
	if cfg.Scan == vector.ScanInt8 {
		ix, scan = vector.NewInt8(dim, sliceSource{dim: dim, vecs: vecs}), vector.ScanInt8
		if err := ix.Load(slices.Clone(slots), vecs); err != nil {
			panic("vectorbench: " + err.Error())
		}
		r.Kernel, r.BytesScanned, r.Rescore = vector.KernelName(scan, dim), int64(n)*int64(vector.CodeBytes(dim)), vector.RescoreDepth(10)
	}
	search := func(i int) []vector.Hit {
		hits, err := ix.SearchWith(qs[i*dim:(i+1)*dim], 10, nil, scan)
		if err != nil {
			panic("vectorbench: " + err.Error())
		}
		return hits
	}
	bw := newStreamReader()
	search(0)
	// The reads of the bandwidth measurement are spread among the timed
	// queries, so that both see the same machine: the 2-core reference
	// machine is shared, and its bandwidth moves by 2x within a minute.
	reads := make([]float64, 0, bandwidthRuns)
	times := make([]time.Duration, queries)
	for i := range times {
		if i*bandwidthRuns/queries >= len(reads) {
			reads = append(reads, bw.read())
		}
		start := time.Now()
		search(i)
		times[i] = time.Since(start)
	}
	for len(reads) < bandwidthRuns {
		reads = append(reads, bw.read())
	}
	slices.Sort(reads)
	r.Bandwidth = reads[len(reads)/2]
	slices.Sort(times)
	median := times[len(times)/2].Seconds()
	r.MsPerQuery = median * 1e3
	r.GBPerS = float64(r.BytesScanned) / median / 1e9
	r.FloorMs = float64(r.BytesScanned) / (r.Bandwidth * 1e9) * 1e3
	r.Ratio = r.MsPerQuery / r.FloorMs
	if scan == vector.ScanInt8 {
		var sum float64
		read := make([]int64, queries)
		for i := range queries {
			q := qs[i*dim : (i+1)*dim]
			sum += recall(search(i), exact.Search(q, 10, nil))
			read[i] = int64(n) * int64(vector.CodeBytesRead(q))
		}
		r.Recall = sum / float64(queries)
		slices.Sort(read)
		r.CodesRead = read[len(read)/2]
	}
	return r
}

// String is the report `medkb bench vector` prints.
func (r Result) String() string {
	s := fmt.Sprintf("kernel: %s\n", r.Kernel)
	s += fmt.Sprintf("read bandwidth: %.1f GB/s (streaming read of %d MiB on %d goroutines, median of %d among the queries)\n",
		r.Bandwidth, bandwidthBytes>>20, runtime.GOMAXPROCS(0), bandwidthRuns)
	s += fmt.Sprintf("scan: %.3f ms/query (median), %.1f MB scanned, %.1f GB/s\n", r.MsPerQuery, float64(r.BytesScanned)/1e6, r.GBPerS)
	s += fmt.Sprintf("memory floor: %.3f ms; scan/floor %.2fx\n", r.FloorMs, r.Ratio)
	if r.Rescore > 0 {
		s += fmt.Sprintf("int8 codes read: %.1f MB a query (median; the dimensions where the query is zero are skipped)\n", float64(r.CodesRead)/1e6)
		s += fmt.Sprintf("int8+rescore %d: recall@10 vs exact f32 %.4f\n", r.Rescore, r.Recall)
	}
	return s
}

// recall is the share of want's ordinals that got holds.
func recall(got, want []vector.Hit) float64 {
	if len(want) == 0 {
		return 1
	}
	n := 0
	for _, w := range want {
		for _, g := range got {
			if g.Ord == w.Ord {
				n++
				break
			}
		}
	}
	return float64(n) / float64(len(want))
}

// bandwidthBytes and bandwidthRuns size the bandwidth measurement.
const (
	bandwidthBytes = 256 << 20
	bandwidthRuns  = 7
)

// streamReader measures the streaming read bandwidth: reads of a
// 256 MiB buffer, far beyond the last-level cache, split across
// runtime.GOMAXPROCS(0) goroutines as the scan is.
type streamReader struct {
	buf     []float32
	workers int
}

// newStreamReader returns a reader with its buffer written: pages never
// written would all map the kernel's one zero page, which stays in cache.
func newStreamReader() *streamReader {
	s := &streamReader{buf: make([]float32, bandwidthBytes/4), workers: runtime.GOMAXPROCS(0)}
	for i := range s.buf {
		s.buf[i] = 1
	}
	return s
}

// read reads the buffer once and returns the bandwidth in GB/s.
func (s *streamReader) read() float64 {
	per := len(s.buf) / s.workers
	start := time.Now()
	var wg sync.WaitGroup
	for w := range s.workers {
		wg.Go(func() { vek32.Sum(s.buf[w*per : (w+1)*per]) })
	}
	wg.Wait()
	return float64(s.workers*per*4) / time.Since(start).Seconds() / 1e9
}

// sliceSource serves an int8 index's exact vectors from memory.
type sliceSource struct {
	dim  int
	vecs []float32
}

func (s sliceSource) Vectors(ords []uint64, fn func(int, []float32)) error {
	for i, o := range ords {
		fn(i, s.vecs[int(o)*s.dim:int(o+1)*s.dim])
	}
	return nil
}

// unitVectors returns n normalised vectors of dimension dim whose
// components are drawn from a standard normal, so directions are
// uniform. (An all-zero draw, which Normalize refuses, has probability 0.)
func unitVectors(rng *rand.Rand, n, dim int) []float32 {
	vecs := make([]float32, n*dim)
	for i := range vecs {
		vecs[i] = float32(rng.NormFloat64())
	}
	for i := range n {
		vector.Normalize(vecs[i*dim : (i+1)*dim])
	}
	return vecs
}
