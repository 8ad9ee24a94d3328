package vector

import "math"

// Normalize scales v in place to unit L2 norm and reports whether it could:
// it returns false, leaving v unchanged, when v is empty, all zero, or
// holds a NaN or an infinity. The norm is accumulated in float64.
func Normalize(v []float32) bool {
	var sum float64
	for _, f := range v {
		sum += float64(f) * float64(f)
	}
	if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return false
	}
	inv := 1 / math.Sqrt(sum)
	for i, f := range v {
		v[i] = float32(float64(f) * inv)
	}
	return true
}
