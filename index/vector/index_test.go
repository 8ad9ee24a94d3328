package vector

import (
	"errors"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

func slotsFrom(first uint64, n int) []base.Slot {
	slots := randomSlots(n)
	for i := range slots {
		slots[i].Ord += first
	}
	return slots
}

func TestAppendChecksLayout(t *testing.T) {
	ix := New(2)
	if err := ix.Append(slotsFrom(0, 2), []float32{1, 0, 0, 1}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		slots []base.Slot
		vecs  []float32
	}{
		{"ordinal gap", slotsFrom(3, 1), []float32{1, 0}},
		{"ordinal reused", slotsFrom(1, 1), []float32{1, 0}},
		{"short vectors", slotsFrom(2, 2), []float32{1, 0, 0}},
		{"long vectors", slotsFrom(2, 1), []float32{1, 0, 0}},
	}
	for _, c := range cases {
		if err := ix.Append(c.slots, c.vecs); !errors.Is(err, ErrLayout) {
			t.Errorf("%s: err = %v, want ErrLayout", c.name, err)
		}
	}
	if ix.Len() != 2 || ix.Live() != 2 {
		t.Errorf("after failed appends: Len %d Live %d, want 2 2", ix.Len(), ix.Live())
	}
}

func TestKillAndLive(t *testing.T) {
	ix := New(1)
	slots := slotsFrom(0, 4)
	slots[2].Alive = false
	if err := ix.Append(slots, []float32{1, 1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	if ix.Live() != 3 {
		t.Fatalf("Live = %d, want 3", ix.Live())
	}
	ix.Kill([]uint64{0, 2, 0, 99})
	if ix.Len() != 4 || ix.Live() != 2 {
		t.Errorf("Len %d Live %d, want 4 2", ix.Len(), ix.Live())
	}
	if s, ok := ix.Slot(0); !ok || s.Alive {
		t.Errorf("Slot(0) = %+v, %v; want dead", s, ok)
	}
	if _, ok := ix.Slot(4); ok {
		t.Error("Slot(4) reported present")
	}
}

func TestLoadReplacesAndCaps(t *testing.T) {
	ix := New(2)
	if err := ix.Append(slotsFrom(0, 3), make([]float32, 6)); err != nil {
		t.Fatal(err)
	}
	// Spare capacity beyond len must not be written by a later Append.
	vecs := make([]float32, 2, 8)
	vecs[0] = 1
	if err := ix.Load(slotsFrom(0, 1), vecs); err != nil {
		t.Fatal(err)
	}
	if ix.Len() != 1 || ix.Live() != 1 {
		t.Fatalf("after Load: Len %d Live %d, want 1 1", ix.Len(), ix.Live())
	}
	if err := ix.Append(slotsFrom(1, 1), []float32{0, 1}); err != nil {
		t.Fatal(err)
	}
	if spare := vecs[2:4]; !slices.Equal(spare, []float32{0, 0}) {
		t.Errorf("Append wrote into the loaded buffer's spare capacity: %v", spare)
	}
	if err := ix.Load(slotsFrom(1, 1), []float32{1, 0}); !errors.Is(err, ErrLayout) {
		t.Errorf("Load from ordinal 1: err = %v, want ErrLayout", err)
	}
	if ix.Len() != 2 {
		t.Errorf("failed Load changed the content: Len %d", ix.Len())
	}
}

func TestVectorViewSurvivesAppend(t *testing.T) {
	ix := New(2)
	if err := ix.Append(slotsFrom(0, 1), []float32{0.6, 0.8}); err != nil {
		t.Fatal(err)
	}
	v := ix.Vector(0)
	if cap(v) != 2 {
		t.Errorf("view capacity %d lets callers append into the slab", cap(v))
	}
	for i := 1; i < 100; i++ {
		if err := ix.Append(slotsFrom(uint64(i), 1), []float32{1, 0}); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(v, []float32{0.6, 0.8}) || !slices.Equal(ix.Vector(0), v) {
		t.Errorf("view changed after appends: %v, index has %v", v, ix.Vector(0))
	}
	if ix.Vector(100) != nil {
		t.Error("Vector(100) of a 100-slot index is not nil")
	}
}

func TestNewRejectsBadDim(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("New(0) did not panic")
		}
	}()
	New(0)
}

// TestConcurrentSearchAndWrites is for the race detector: f32 and int8
// searches run while other goroutines append and kill.
func TestConcurrentSearchAndWrites(t *testing.T) {
	const dim = 16
	rng := rand.New(rand.NewPCG(9, 9))
	ix := New(dim)
	ix.workers = 2
	if err := ix.Append(slotsFrom(0, 2000), randomUnit(rng, 2000, dim)); err != nil {
		t.Fatal(err)
	}
	batches := make([][]float32, 20)
	for i := range batches {
		batches[i] = randomUnit(rng, 50, dim)
	}
	q := randomUnit(rng, 1, dim)
	var wg sync.WaitGroup
	for i := range 4 {
		scan := []Scan{ScanF32, ScanInt8}[i%2] // int8 quantises the slab while others search
		wg.Go(func() {
			for range 50 {
				hits, err := ix.SearchWith(q, 10, func(s *base.Slot) bool { return s.Ord%2 == 0 }, scan)
				if err != nil {
					t.Error(err)
				}
				for _, h := range hits {
					if h.Ord%2 != 0 {
						t.Errorf("filter ignored: ordinal %d", h.Ord)
					}
				}
			}
		})
	}
	wg.Go(func() {
		for _, b := range batches {
			if err := ix.Append(slotsFrom(uint64(ix.Len()), 50), b); err != nil {
				t.Error(err)
			}
			ix.Kill([]uint64{uint64(ix.Len() - 1)})
		}
	})
	wg.Wait()
	if ix.Len() != 3000 || ix.Live() != 2980 {
		t.Errorf("Len %d Live %d, want 3000 2980", ix.Len(), ix.Live())
	}
}
