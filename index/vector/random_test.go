package vector

import (
	"math/rand/v2"

	"github.com/medkb/medkb/internal/base"
)

// randomSlots returns n alive slots numbered from 0.
func randomSlots(n int) []base.Slot {
	slots := make([]base.Slot, n)
	for i := range slots {
		slots[i] = base.Slot{Ord: uint64(i), Alive: true}
	}
	return slots
}

// randomUnit returns n normalised vectors of dimension dim, with
// components drawn from a standard normal so directions are uniform.
func randomUnit(rng *rand.Rand, n, dim int) []float32 {
	vecs := make([]float32, n*dim)
	for i := range n {
		v := vecs[i*dim : (i+1)*dim]
		for !Normalize(v) {
			for j := range v {
				v[j] = float32(rng.NormFloat64())
			}
		}
	}
	return vecs
}
