package vector

import (
	"math/rand/v2"
	"testing"
)

func BenchmarkKernelInCache(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	dim := 384
	m := blockRows(dim)
	rows := randomUnit(rng, m, dim)
	q := randomUnit(rng, 1, dim)
	dst := make([]float32, m)
	for _, k := range []struct {
		name string
		fn   kernel
	}{{"matmul", scoreSIMD}, {"dot", scoreDot}, {"go", scoreGo}} {
		b.Run(k.name, func(b *testing.B) {
			for b.Loop() {
				k.fn(dst, rows, q)
			}
			b.ReportMetric(float64(m*dim*4)/(b.Elapsed().Seconds()/float64(b.N))/1e9, "GB/s")
		})
	}
}
