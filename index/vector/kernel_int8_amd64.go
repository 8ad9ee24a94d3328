package vector

import "golang.org/x/sys/cpu"

// dotsInt8AVX2 is dotsInt8Go in AVX2 (kernel_int8_amd64.s): a tile's 64
// sums live in eight YMM registers while the kernel walks the query's
// active pairs; each pair's column (128 codes, two cache lines) is
// widened to 16 bits with VPMOVSXBW and multiplied by the pair's two
// query codes, broadcast, with VPMADDWD, which adds the two products of
// a row into its 32-bit lane. The same column two tiles ahead is
// prefetched (PREFETCHT0): a sparse query's columns are scattered over
// the tile, a pattern the hardware prefetcher does not follow.
//
//go:noescape
func dotsInt8AVX2(dst []int32, tiles []int8, tileBytes int, query []int32)

func init() {
	if cpu.X86.HasAVX2 {
		int8Scan, int8KernelName = dotsInt8AVX2, "avx2 int8"
	}
}
