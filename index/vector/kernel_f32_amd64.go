package vector

import "golang.org/x/sys/cpu"

// dotsF32AVX2 is scoreGo in AVX2 with FMA (kernel_f32_amd64.s) for
// vectors whose dimension is a multiple of 16: four rows at a time share
// each load of the query, two accumulators a row hide the FMA latency,
// and the group of rows two ahead is prefetched.
//
//go:noescape
func dotsF32AVX2(dst, rows, q []float32)

func init() {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		f32Rows16, f32Rows16Name = dotsF32AVX2, "avx2-fma f32"
	}
}
