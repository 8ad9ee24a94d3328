package vector

import "golang.org/x/sys/cpu"

// dotsInt8AVX2 is dotsInt8Go in AVX2 (kernel_int8_amd64.s): it scores a
// tile in two halves of 64 rows, whose sums live in eight YMM registers
// while the kernel walks the query's active columns two at a time, four
// entries over one half and then the same four over the other, so that
// both cache lines of a column are read close together. For each 16 rows
// it interleaves the two columns' codes byte by byte, widens them to 16
// bits with VPMOVSXBW and multiplies them by the two query codes,
// broadcast, with VPMADDWD, which adds a row's two products into its
// 32-bit lane. The same columns two tiles ahead are prefetched
// (PREFETCHT0): a sparse query's columns are scattered over the tile, a
// pattern the hardware prefetcher does not follow.
//
//go:noescape
func dotsInt8AVX2(dst []int32, tiles []int8, tileBytes int, query []int32)

func init() {
	if cpu.X86.HasAVX2 {
		int8Scan, int8KernelName = dotsInt8AVX2, "avx2 int8"
	}
}
