package vector

import (
	"math"

	"github.com/viterin/vek/vek32"
)

// codeMax is the largest magnitude of a stored code. Codes are symmetric,
// -127..127, so that no code needs the asymmetric -128 and a code's
// negation is again a code.
const codeMax = 127

// quantize writes v as codes scaled by its own largest magnitude, so that
// v[j] ~= scale * dst[j], and returns scale. dst may be longer than v (a
// padded row); the extra codes are set to 0. An all-zero v gets scale 0.
func quantize(dst []int8, v []float32) (scale float32) {
	peak := peakAbs(v)
	clear(dst[len(v):])
	if peak == 0 {
		clear(dst[:len(v)])
		return 0
	}
	inv := codeMax / peak
	dst = dst[:len(v)]
	for j, f := range v {
		dst[j] = int8(roundHalfAway(f * inv))
	}
	return peak / codeMax
}

// peakAbs returns the largest magnitude in v, from vek's SIMD maximum
// and minimum: a scalar pass over every component was a third of the
// time an int8 store takes to open.
func peakAbs(v []float32) float32 {
	if len(v) == 0 {
		return 0
	}
	return max(vek32.Max(v), -vek32.Min(v), 0)
}

// queryCodes writes the query q as int16 codes with the largest magnitude
// the int8 kernels can take without overflow (queryMax), and returns its
// scale. A finer query grid than the stored rows' halves the rounding
// error at no cost: the kernels widen the rows to 16 bits anyway.
func queryCodes(dst []int16, q []float32) (scale float32) {
	peak := peakAbs(q)
	clear(dst[len(q):])
	if peak == 0 {
		clear(dst[:len(q)])
		return 0
	}
	top := float32(queryMax(len(dst)))
	inv := top / peak
	for j, f := range q {
		dst[j] = int16(roundHalfAway(f * inv))
	}
	return peak / top
}

// queryMax is the largest query code magnitude for rows of stride codes:
// the kernels sum stride products of at most codeMax*queryMax in int32,
// so codeMax*queryMax*stride must stay below 2^31.
func queryMax(stride int) int {
	return min(math.MaxInt16, math.MaxInt32/(codeMax*max(1, stride)))
}

func abs32(f float32) float32 { return math.Float32frombits(math.Float32bits(f) &^ (1 << 31)) }

// roundHalfAway rounds f to the nearest integer, halves away from zero
// (math.Round), without a branch on the sign, which mispredicts on every
// other component of a vector and made quantising a store's vectors at
// open take 0.35 s per 100k x 384. In float64, |f| + 0.5 is exact for any
// float32 f below 2^29, and the conversion truncates toward zero. f must
// lie within int32's range.
func roundHalfAway(f float32) int32 {
	x := float64(f)
	return int32(x + math.Copysign(0.5, x))
}
