package vector

import "golang.org/x/sys/cpu"

// dotsInt8AVX2 is dotsInt8Go in AVX2 (kernel_int8_amd64.s): four rows at
// a time share each load of the query, rows are widened to 16 bits with
// VPMOVSXBW and multiplied and pair-summed with VPMADDWD into 32-bit
// lanes. It needs len(codes) >= len(dst)*len(q) and len(q) a positive
// multiple of 16.
//
//go:noescape
func dotsInt8AVX2(dst []int32, codes []int8, q []int16)

func init() {
	if cpu.X86.HasAVX2 {
		int8Scan, int8KernelName = dotsInt8AVX2, "avx2 int8"
	}
}
