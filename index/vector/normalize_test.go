package vector

import (
	"math"
	"slices"
	"testing"
)

func TestNormalize(t *testing.T) {
	v := []float32{3, 0, -4}
	if !Normalize(v) {
		t.Fatal("Normalize(3,0,-4) = false")
	}
	if want := []float32{0.6, 0, -0.8}; !slices.Equal(v, want) {
		t.Errorf("got %v, want %v", v, want)
	}
	big := []float32{math.MaxFloat32, math.MaxFloat32}
	if !Normalize(big) || math.Abs(float64(big[0])-math.Sqrt2/2) > 1e-7 {
		t.Errorf("huge components: got %v", big)
	}
}

func TestNormalizeRejects(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	for _, v := range [][]float32{nil, {0, 0}, {1, nan}, {inf, 1}, {-inf}} {
		before := slices.Clone(v)
		if Normalize(v) {
			t.Errorf("Normalize(%v) = true", before)
		}
		for i := range v {
			if math.Float32bits(v[i]) != math.Float32bits(before[i]) {
				t.Errorf("Normalize(%v) changed it to %v", before, v)
			}
		}
	}
}
