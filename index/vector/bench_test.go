package vector

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/viterin/vek/vek32"
)

// benchIndex builds an index of n random vectors with one query.
func benchIndex(b *testing.B, n, dim int) (*Index, []float32) {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	ix := New(dim)
	if err := ix.Load(randomSlots(n), randomUnit(rng, n, dim)); err != nil {
		b.Fatal(err)
	}
	return ix, randomUnit(rng, 1, dim)
}

func runSearch(b *testing.B, ix *Index, q []float32) {
	b.ReportAllocs()
	for b.Loop() {
		ix.Search(q, 10, nil)
	}
	perOp := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(ix.Len()*ix.dim*4)/perOp/1e9, "GB/s")
}

// scoreDot is the alternative SIMD kernel, kept here to compare with
// scoreSIMD: one vek32.Dot call per row instead of one matrix-vector
// product per block.
func scoreDot(dst, rows, q []float32) {
	dim := len(q)
	for i := range dst {
		dst[i] = vek32.Dot(rows[i*dim:(i+1)*dim], q)
	}
}

// f32Kernels are the f32 kernels the benchmarks compare: medkb's AVX2
// one where the CPU has it, vek's matrix-vector product, vek's Dot per
// row, and the pure-Go twin.
func f32Kernels() []struct {
	name string
	fn   kernel
} {
	ks := []struct {
		name string
		fn   kernel
	}{{"vek", scoreSIMD}, {"dot", scoreDot}, {"go", scoreGo}}
	if f32Rows16 != nil {
		ks = append(ks, struct {
			name string
			fn   kernel
		}{"avx2", f32Rows16})
	}
	return ks
}

// BenchmarkSearch100kx384 is the headline number: exact top-10 over
// 100,000 vectors of 384 floats (147 MiB), per kernel and worker count.
func BenchmarkSearch100kx384(b *testing.B) {
	ix, q := benchIndex(b, 100_000, 384)
	for _, k := range f32Kernels() {
		for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("%s/workers=%d", k.name, workers), func(b *testing.B) {
				ix.kernel, ix.workers = k.fn, workers
				runSearch(b, ix, q)
			})
		}
	}
}

// BenchmarkReadFloor100kx384 is the memory-bandwidth floor the search is
// measured against: summing the same slab with vek32.Sum, which reads
// every float once and does almost no arithmetic, on one goroutine per
// runtime.GOMAXPROCS(0); int8 sums the int8 codes' bytes as floats.
func BenchmarkReadFloor100kx384(b *testing.B) {
	ix, _ := benchIndex(b, 100_000, 384)
	ix.ensureCodes()
	codes := unsafe.Slice((*float32)(unsafe.Pointer(&ix.codes.data[0])), len(ix.codes.data)/4)
	for _, slab := range []struct {
		name string
		vecs []float32
	}{{"f32", ix.vecs}, {"int8", codes}} {
		b.Run(slab.name, func(b *testing.B) {
			workers := runtime.GOMAXPROCS(0)
			per := len(slab.vecs) / workers
			for b.Loop() {
				var wg sync.WaitGroup
				for w := range workers {
					wg.Go(func() { vek32.Sum(slab.vecs[w*per : (w+1)*per]) })
				}
				wg.Wait()
			}
			perOp := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(len(slab.vecs)*4)/perOp/1e9, "GB/s")
		})
	}
}

// BenchmarkKernelInCache scores one block that stays in cache: the
// kernels' arithmetic speed, without the memory bottleneck.
func BenchmarkKernelInCache(b *testing.B) {
	const dim = 384
	rng := rand.New(rand.NewPCG(1, 2))
	m := blockRows(dim)
	rows, q := randomUnit(rng, m, dim), randomUnit(rng, 1, dim)
	dst := make([]float32, m)
	for _, k := range f32Kernels() {
		b.Run(k.name, func(b *testing.B) {
			for b.Loop() {
				k.fn(dst, rows, q)
			}
			perOp := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(len(rows)*4)/perOp/1e9, "GB/s")
		})
	}
}

// BenchmarkSearchSmall shows where splitting a search across goroutines
// starts to pay (minParallelFloats).
func BenchmarkSearchSmall(b *testing.B) {
	for _, n := range []int{250, 500, 1000, 2000, 4000} {
		ix, q := benchIndex(b, n, 384)
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("n=%d/workers=%d", n, workers), func(b *testing.B) {
				ix.workers = workers
				runSearch(b, ix, q)
			})
		}
	}
}

// BenchmarkSearchInt8100kx384 is exact top-10 by the int8 scan with
// rescoring (from the in-memory float32 slab), per kernel, query and
// workers: a dense query, and sparse ones that set one dimension in
// twelve at random, as the built-in embedder's short queries do. The
// sparse queries take turns among 64 different ones: one query repeated
// would find the columns it reads still in cache. GB/s counts the code
// bytes the queries' active dimensions read.
func BenchmarkSearchInt8100kx384(b *testing.B) {
	ix, q := benchIndex(b, 100_000, 384)
	ix.ensureCodes()
	rng := rand.New(rand.NewPCG(3, 4))
	sparse := make([][]float32, 64)
	for i := range sparse {
		sparse[i] = slices.Clone(q)
		for j := range sparse[i] {
			if rng.IntN(12) != 0 {
				sparse[i][j] = 0
			}
		}
		Normalize(sparse[i])
	}
	kernels := []struct {
		name string
		fn   int8Kernel
	}{{"simd", int8Scan}, {"go", dotsInt8Go}}
	for _, k := range kernels {
		for _, query := range []struct {
			name string
			qs   [][]float32
		}{{"dense", [][]float32{q}}, {"sparse", sparse}} {
			read := 0
			for _, q := range query.qs {
				read += len(ix.codes.scales) * CodeBytesRead(q)
			}
			for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
				b.Run(fmt.Sprintf("%s/%s/workers=%d", k.name, query.name, workers), func(b *testing.B) {
					ix.int8k, ix.workers = k.fn, workers
					i := 0
					for b.Loop() {
						if _, err := ix.SearchWith(query.qs[i%len(query.qs)], 10, nil, ScanInt8); err != nil {
							b.Fatal(err)
						}
						i++
					}
					perOp := b.Elapsed().Seconds() / float64(b.N)
					b.ReportMetric(float64(read)/float64(len(query.qs))/perOp/1e9, "GB/s")
				})
			}
		}
	}
}

// BenchmarkScanF32Int8100kx384 is exact top-10 by ScanF32 on an int8
// index, which streams the float32 vectors from its Source (here a slice,
// so the reading costs only memory bandwidth, not the store's decoding)
// on the calling goroutine; GB/s counts the float bytes read.
func BenchmarkScanF32Int8100kx384(b *testing.B) {
	const n, dim = 100_000, 384
	rng := rand.New(rand.NewPCG(1, 2))
	vecs := randomUnit(rng, n, dim)
	ix := NewInt8(dim, &sliceSource{dim: dim, vecs: vecs})
	if err := ix.Load(randomSlots(n), vecs); err != nil {
		b.Fatal(err)
	}
	q := randomUnit(rng, 1, dim)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ix.SearchWith(q, 10, nil, ScanF32); err != nil {
			b.Fatal(err)
		}
	}
	perOp := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(n*dim*4)/perOp/1e9, "GB/s")
}

// BenchmarkInt8KernelInCache scores a block of tiles that stays in
// cache: the int8 kernels' arithmetic speed, for a dense query (every
// dimension active) and a sparse one (one dimension in twelve, as a
// built-in embedder's query); GB/s counts the codes of the active
// dimensions.
func BenchmarkInt8KernelInCache(b *testing.B) {
	const dim = 384
	rng := rand.New(rand.NewPCG(1, 2))
	m := scanTiles * tileRows
	c := &codes{stride: codeStride(dim)}
	var mem memory
	defer mem.release()
	c.add(&mem, randomUnit(rng, m, dim), dim)
	q := make([]int16, c.stride)
	queryCodes(q, randomUnit(rng, 1, dim))
	sparse := slices.Clone(q)
	for j := range sparse {
		if rng.IntN(12) != 0 {
			sparse[j] = 0
		}
	}
	dst := make([]int32, m)
	for _, k := range []struct {
		name string
		fn   int8Kernel
	}{{"simd", int8Scan}, {"go", dotsInt8Go}} {
		for _, query := range []struct {
			name string
			q    []int16
		}{{"dense", q}, {"sparse", sparse}} {
			b.Run(k.name+"/"+query.name, func(b *testing.B) {
				active := activeColumns(query.q)
				dims := 0
				for _, v := range query.q {
					if v != 0 {
						dims++
					}
				}
				for b.Loop() {
					k.fn(dst, c.data, c.tileBytes(), active)
				}
				perOp := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(float64(m*dims)/perOp/1e9, "GB/s")
			})
		}
	}
}

// BenchmarkQuantize100kx384 quantises 100k vectors into tiles, as every
// open of an int8 store does.
func BenchmarkQuantize100kx384(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	vecs := randomUnit(rng, 100_000, 384)
	for b.Loop() {
		c := &codes{stride: codeStride(384)}
		var mem memory
		c.add(&mem, vecs, 384)
		mem.release()
	}
}
