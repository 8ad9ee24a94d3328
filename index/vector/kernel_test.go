package vector

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestF32KernelsAgree checks every f32 kernel against a float64
// reference on random rows, row counts around the four-row step and
// dimensions the kernels take.
func TestF32KernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 16))
	for _, dim := range []int{16, 32, 48, 384, 400} {
		for _, rows := range []int{0, 1, 3, 4, 5, 8, 9, 257} {
			m := randomUnit(rng, rows, dim)
			q := randomUnit(rng, 1, dim)
			want := make([]float64, rows)
			for i := range want {
				for j := range dim {
					want[i] += float64(m[i*dim+j]) * float64(q[j])
				}
			}
			ks := map[string]kernel{"go": scoreGo, "vek": scoreSIMD}
			if f32Rows16 != nil {
				ks[f32Rows16Name] = f32Rows16
			}
			for name, k := range ks {
				got := make([]float32, rows)
				k(got, m, q)
				for i := range got {
					if d := math.Abs(float64(got[i]) - want[i]); d > 1e-5 {
						t.Fatalf("%s dim=%d rows=%d: row %d %v, want %v", name, dim, rows, i, got[i], want[i])
					}
				}
			}
		}
	}
}
