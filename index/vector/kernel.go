package vector

import "github.com/viterin/vek/vek32"

// A kernel writes into dst[i] the dot product of row i of rows (len(dst)
// rows of len(q) floats, row-major) with q.
type kernel func(dst, rows, q []float32)

// scoreSIMD scores a block with one matrix-vector product: rows is an
// m-by-dim matrix and q a dim-by-1 one. vek uses AVX2+FMA when the CPU
// has both and falls back to Go otherwise. It splits products of 100,000
// or more multiply-adds across goroutines of its own, so blocks stay
// below that (see blockRows).
func scoreSIMD(dst, rows, q []float32) {
	vek32.MatMul_Into(dst, rows, q, len(q))
}

// f32Rows16 is the kernel for dimensions that are a multiple of 16:
// dotsF32AVX2 where the CPU has AVX2 and FMA (kernel_f32_amd64.go),
// otherwise nil and scoreSIMD serves every dimension.
var (
	f32Rows16     kernel
	f32Rows16Name string
)

// f32KernelFor returns the SIMD kernel for dimension dim and its name.
func f32KernelFor(dim int) (kernel, string) {
	if f32Rows16 != nil && dim%16 == 0 {
		return f32Rows16, f32Rows16Name
	}
	if vek32.Info().Acceleration {
		return scoreSIMD, "avx2-fma f32 (vek)"
	}
	return scoreSIMD, "go f32 (vek)"
}

// scoreGo is the pure-Go twin of the SIMD kernels.
func scoreGo(dst, rows, q []float32) {
	dim := len(q)
	for i := range dst {
		dst[i] = dotGo(rows[i*dim:(i+1)*dim], q)
	}
}

// dotGo is a dot product with four independent accumulators, so the loop
// is not serialised on one addition chain.
func dotGo(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// scoreRows is the length of a scratch's score buffer: a block of the
// f32 scan (blockRows) or scanTiles tiles of the int8 scan.
func scoreRows(dim int) int { return max(blockRows(dim), scanTiles*tileRows) }

// blockRows is the number of rows scored per kernel call for vectors of
// dim floats: about 64 Ki floats (256 KiB, comfortably inside L2), capped
// at 256 rows so the score buffer stays small, and at least one row.
func blockRows(dim int) int {
	return max(1, min(256, (1<<16)/dim))
}
