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

// TestF32KernelRowAlone checks that every f32 kernel gives a row the
// same float32 score, bit for bit, whatever the block it is scored in:
// alone, or at any place in a block of any length. The f32 scan's
// scores then do not depend on how the slab was cut into blocks and
// chunks (so not on the number of workers), and the int8 index's
// streamed f32 scan, which scores rows it reads one at a time, gives
// the f32 index's scores exactly.
func TestF32KernelRowAlone(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 61))
	ks := map[string]kernel{"go": scoreGo, "vek": scoreSIMD}
	if f32Rows16 != nil {
		ks[f32Rows16Name] = f32Rows16
	}
	for _, dim := range []int{5, 16, 48, 100, 384, 400} {
		m := randomUnit(rng, 300, dim)
		q := randomUnit(rng, 1, dim)
		for name, k := range ks {
			if name == f32Rows16Name && dim%16 != 0 {
				continue
			}
			alone := make([]float32, 300)
			for i := range alone {
				k(alone[i:i+1], m[i*dim:(i+1)*dim], q)
			}
			for _, rows := range []int{2, 3, 4, 5, 7, 8, 9, 170, 257} {
				for _, first := range []int{0, 1, 2, 3, 43} {
					got := make([]float32, rows)
					k(got, m[first*dim:(first+rows)*dim], q)
					for i, s := range got {
						if math.Float32bits(s) != math.Float32bits(alone[first+i]) {
							t.Fatalf("%s dim=%d: row %d at %d of a block of %d scores %v, alone %v", name, dim, first+i, i, rows, s, alone[first+i])
						}
					}
				}
			}
		}
	}
}
