package vector

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/medkb/medkb/internal/base"
	"github.com/viterin/vek/vek32"
)

// BenchResult is the outcome of Bench.
type BenchResult struct {
	MsPerQuery float64 // median wall time of one exact top-10 search
	GBPerS     float64 // slab bytes scanned per second at the median
	Workers    int     // goroutines one search used
	SIMD       bool    // whether vek runs its AVX2+FMA kernels on this CPU
}

// Bench builds an index of n random normalised vectors of dimension dim
// (a fixed seed, so runs are comparable) and times queries exact top-10
// searches with random normalised queries, after one untimed warm-up. It
// is what `medkb bench vector` runs. n, dim and queries below 1 count as 1.
func Bench(n, dim, queries int) BenchResult {
	n, dim, queries = max(1, n), max(1, dim), max(1, queries)
	rng := rand.New(rand.NewPCG(1, 2))
	ix := New(dim)
	if err := ix.Load(randomSlots(n), randomUnit(rng, n, dim)); err != nil {
		panic("vector: Bench built an invalid slab: " + err.Error())
	}
	qs := randomUnit(rng, queries, dim)
	ix.Search(qs[:dim], 10, nil)
	times := make([]time.Duration, queries)
	for i := range times {
		start := time.Now()
		ix.Search(qs[i*dim:(i+1)*dim], 10, nil)
		times[i] = time.Since(start)
	}
	slices.Sort(times)
	median := times[len(times)/2].Seconds()
	return BenchResult{
		MsPerQuery: median * 1e3,
		GBPerS:     float64(n) * float64(dim) * 4 / median / 1e9,
		Workers:    ix.workersFor(n),
		SIMD:       vek32.Info().Acceleration,
	}
}

// randomSlots returns n alive slots numbered from 0.
func randomSlots(n int) []base.Slot {
	slots := make([]base.Slot, n)
	for i := range slots {
		slots[i] = base.Slot{Ord: uint64(i), Alive: true}
	}
	return slots
}

// randomUnit returns n normalised vectors of dimension dim, with
// components drawn from a standard normal so directions are uniform.
func randomUnit(rng *rand.Rand, n, dim int) []float32 {
	vecs := make([]float32, n*dim)
	for i := range n {
		v := vecs[i*dim : (i+1)*dim]
		for !Normalize(v) {
			for j := range v {
				v[j] = float32(rng.NormFloat64())
			}
		}
	}
	return vecs
}
