package vector_test

import (
	"fmt"

	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/internal/base"
)

func ExampleIndex_Search() {
	ix := vector.New(2)
	slots := []base.Slot{
		{Ord: 0, Tier: base.T1, Alive: true},
		{Ord: 1, Tier: base.T4, Alive: true},
		{Ord: 2, Tier: base.T2, Alive: true},
	}
	vecs := []float32{1, 0, 0.6, 0.8, 0, 1}
	if err := ix.Append(slots, vecs); err != nil {
		panic(err)
	}
	q := []float32{0.8, 0.6}
	for _, h := range ix.Search(q, 2, nil) {
		fmt.Printf("ord %d score %.2f\n", h.Ord, h.Score)
	}
	objective := func(s *base.Slot) bool { return s.Tier <= base.T2 }
	for _, h := range ix.Search(q, 2, objective) {
		fmt.Printf("T1/T2 only: ord %d score %.2f\n", h.Ord, h.Score)
	}
	// Output:
	// ord 1 score 0.96
	// ord 0 score 0.80
	// T1/T2 only: ord 0 score 0.80
	// T1/T2 only: ord 2 score 0.60
}
