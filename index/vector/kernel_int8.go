package vector

// An int8Kernel writes into dst[i] the integer dot product of row i of
// codes (len(dst) rows of len(q) codes each, row-major) with the query
// codes q. len(q) is a multiple of 16 (see codeStride) and the sums fit
// in int32 (see queryMax), so every kernel gives the same exact result.
type int8Kernel func(dst []int32, codes []int8, q []int16)

// codeStride is the length of a stored code row for vectors of dim
// floats: dim rounded up to a multiple of 16, the kernels' step, with
// zero codes as padding.
func codeStride(dim int) int { return (dim + 15) &^ 15 }

// dotsInt8Go is the pure-Go twin of the SIMD int8 kernel.
func dotsInt8Go(dst []int32, codes []int8, q []int16) {
	stride := len(q)
	for i := range dst {
		row := codes[i*stride : (i+1)*stride]
		var s0, s1, s2, s3 int32
		for j := 0; j < stride; j += 4 {
			s0 += int32(row[j]) * int32(q[j])
			s1 += int32(row[j+1]) * int32(q[j+1])
			s2 += int32(row[j+2]) * int32(q[j+2])
			s3 += int32(row[j+3]) * int32(q[j+3])
		}
		dst[i] = (s0 + s1) + (s2 + s3)
	}
}

// int8Scan is the int8 kernel new indexes use: dotsInt8AVX2 where the CPU
// has AVX2 (set in kernel_int8_amd64.go), otherwise dotsInt8Go.
var (
	int8Scan       int8Kernel = dotsInt8Go
	int8KernelName            = "go int8"
)

// CodeBytes is the memory one vector of dim floats takes in an int8
// scan: its code row (dim rounded up to 16 bytes), without the scale.
func CodeBytes(dim int) int { return codeStride(dim) }

// KernelName names the kernel a scan of vectors of dim floats runs on
// this machine: for ScanF32 (and ScanDefault) "avx2-fma f32" (medkb's
// own, for a dim that is a multiple of 16), else "avx2-fma f32 (vek)" or
// "go f32 (vek)"; for ScanInt8 "avx2 int8" or "go int8".
func KernelName(s Scan, dim int) string {
	if s == ScanInt8 {
		return int8KernelName
	}
	_, name := f32KernelFor(dim)
	return name
}
