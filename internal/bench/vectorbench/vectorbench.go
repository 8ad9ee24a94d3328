package vectorbench

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/internal/base"
	"github.com/viterin/vek/vek32"
)

// Result is the outcome of Run.
type Result struct {
	MsPerQuery float64 // median wall time of one exact top-10 search
	GBPerS     float64 // slab bytes scanned per second at the median
	SIMD       bool    // whether vek runs its AVX2+FMA kernels on this CPU
}

// Run builds an index of n random normalised vectors of dimension dim
// (a fixed seed, so runs are comparable) and times queries exact top-10
// searches with random normalised queries, after one untimed warm-up. It
// is what `medkb bench vector` runs. n, dim and queries below 1 count as 1.
func Run(n, dim, queries int) Result {
	n, dim, queries = max(1, n), max(1, dim), max(1, queries)
	rng := rand.New(rand.NewPCG(1, 2))
	ix := vector.New(dim)
	slots := make([]base.Slot, n)
	for i := range slots {
		slots[i] = base.Slot{Ord: uint64(i), Alive: true}
	}
	if err := ix.Load(slots, unitVectors(rng, n, dim)); err != nil {
		panic("vectorbench: Run built an invalid slab: " + err.Error())
	}
	qs := unitVectors(rng, queries, dim)
	ix.Search(qs[:dim], 10, nil)
	times := make([]time.Duration, queries)
	for i := range times {
		start := time.Now()
		ix.Search(qs[i*dim:(i+1)*dim], 10, nil)
		times[i] = time.Since(start)
	}
	slices.Sort(times)
	median := times[len(times)/2].Seconds()
	return Result{
		MsPerQuery: median * 1e3,
		GBPerS:     float64(n) * float64(dim) * 4 / median / 1e9,
		SIMD:       vek32.Info().Acceleration,
	}
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
