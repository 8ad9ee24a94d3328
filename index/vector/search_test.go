package vector

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// reference is an obviously correct search: score every slot in float64,
// keep the alive matching ones, sort, cut.
func reference(ix *Index, q []float32, k int, match Match) []Hit {
	var all []Hit
	for i := range ix.slots {
		s := &ix.slots[i]
		if !s.Alive || (match != nil && !match(s)) {
			continue
		}
		all = append(all, Hit{Ord: uint64(i), Score: float32(exactScore(ix, q, uint64(i)))})
	}
	slices.SortFunc(all, func(a, b Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Ord, b.Ord))
	})
	return all[:min(k, len(all))]
}

// testSlab returns an index of n random vectors whose slots carry varied
// attributes, with about one in seven slots dead.
func testSlab(rng *rand.Rand, n, dim int) *Index {
	slots := randomSlots(n)
	for i := range slots {
		slots[i].Tier = base.Tier(1 + rng.IntN(4))
		slots[i].Patient = uint32(rng.IntN(5))
		slots[i].Alive = rng.IntN(7) != 0
	}
	ix := New(dim)
	if err := ix.Load(slots, randomUnit(rng, n, dim)); err != nil {
		panic(err)
	}
	return ix
}

// sameHits fails unless got and want rank the same ordinals with scores
// within 1e-4. Two ordinals may trade places only in a near tie (their
// exact scores within 1e-5), where float32 summation order decides.
func sameHits(t *testing.T, label string, ix *Index, q []float32, got, want []Hit) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d hits, want %d", label, len(got), len(want))
	}
	seen := make(map[uint64]bool, len(got))
	for i := range got {
		if seen[got[i].Ord] {
			t.Fatalf("%s: ordinal %d returned twice", label, got[i].Ord)
		}
		seen[got[i].Ord] = true
		if d := got[i].Score - want[i].Score; d > 1e-4 || d < -1e-4 {
			t.Fatalf("%s: hit %d is %v, want %v", label, i, got[i], want[i])
		}
		if got[i].Ord != want[i].Ord {
			if d := exactScore(ix, q, got[i].Ord) - float64(want[i].Score); d > 1e-5 || d < -1e-5 {
				t.Fatalf("%s: hit %d is %v, want %v (not a near tie)", label, i, got[i], want[i])
			}
		}
	}
}

func exactScore(ix *Index, q []float32, ord uint64) float64 {
	var dot float64
	for j, f := range ix.Vector(ord) {
		dot += float64(f) * float64(q[j])
	}
	return dot
}

func TestSearchKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	filters := map[string]Match{
		"all":     nil,
		"T1orT2":  func(s *base.Slot) bool { return s.Tier <= base.T2 },
		"patient": func(s *base.Slot) bool { return s.Patient == 3 },
		"none":    func(*base.Slot) bool { return false },
	}
	for _, n := range []int{0, 1, 7, 300, 2500} {
		for _, dim := range []int{1, 3, 8, 17, 64, 384} {
			ix := testSlab(rng, n, dim)
			q := randomUnit(rng, 1, dim)
			for _, k := range []int{1, 10, 64, n + 3} {
				for fname, match := range filters {
					want := reference(ix, q, k, match)
					for _, workers := range []int{1, 3} {
						label := fmt.Sprintf("n=%d dim=%d k=%d filter=%s workers=%d", n, dim, k, fname, workers)
						ix.kernel, ix.workers = scoreGo, workers
						pure := ix.Search(q, k, match)
						ix.kernel = scoreSIMD
						simd := ix.Search(q, k, match)
						sameHits(t, label+" simd vs go", ix, q, simd, pure)
						ix.kernel, _ = f32KernelFor(dim)
						own := ix.Search(q, k, match)
						sameHits(t, label+" "+KernelName(ScanF32, dim)+" vs go", ix, q, own, pure)
						sameHits(t, label+" go vs float64 reference", ix, q, pure, want)
					}
				}
			}
		}
	}
}

func TestSearchMultiWorkerSplit(t *testing.T) {
	// Large enough that the size rule alone picks several goroutines.
	rng := rand.New(rand.NewPCG(3, 4))
	n, dim := 2*minParallelFloats/64+5, 64
	ix := testSlab(rng, n, dim)
	want := min(2, runtime.GOMAXPROCS(0))
	if w := ix.workersFor(n, 4*dim); w != want {
		t.Fatalf("workersFor(%d) = %d, want %d", n, w, want)
	}
	if w := ix.workersFor(n/4, 4*dim); w != 1 {
		t.Fatalf("workersFor(%d) = %d, want 1", n/4, w)
	}
	q := randomUnit(rng, 1, dim)
	sameHits(t, "size rule", ix, q, ix.Search(q, 25, nil), reference(ix, q, 25, nil))
}

func TestSearchTiesBreakBySmallerOrd(t *testing.T) {
	// Every slot holds the same vector, so every score ties; the split
	// across workers must not change which ordinals win.
	n, dim := 2*minParallelFloats/8+11, 8
	vecs := make([]float32, n*dim)
	for i := range n {
		vecs[i*dim] = 1
	}
	ix := New(dim)
	if err := ix.Load(randomSlots(n), vecs); err != nil {
		t.Fatal(err)
	}
	ix.Kill([]uint64{1, 3})
	for _, workers := range []int{1, 2, 4} {
		ix.workers = workers
		got := ix.Search([]float32{1, 0, 0, 0, 0, 0, 0, 0}, 4, nil)
		want := []Hit{{0, 1}, {2, 1}, {4, 1}, {5, 1}}
		if !slices.Equal(got, want) {
			t.Errorf("workers=%d: got %v, want %v", workers, got, want)
		}
	}
}

func TestSearchOffersOnlyAliveSlots(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ix := testSlab(rng, 500, 16)
	ix.Search(randomUnit(rng, 1, 16), 500, func(s *base.Slot) bool {
		if !s.Alive {
			t.Fatalf("Match offered dead slot %d", s.Ord)
		}
		return true
	})
}

func TestSearchEdgeCases(t *testing.T) {
	ix := New(4)
	q := []float32{1, 0, 0, 0}
	if got := ix.Search(q, 3, nil); got != nil {
		t.Errorf("empty index: got %v", got)
	}
	if err := ix.Append(randomSlots(2), []float32{1, 0, 0, 0, 0, 1, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if got := ix.Search(q, 0, nil); got != nil {
		t.Errorf("k=0: got %v", got)
	}
	if got := ix.Search(q, 5, nil); len(got) != 2 || got[0].Ord != 0 || got[1].Ord != 1 {
		t.Errorf("k > live: got %v", got)
	}
	ix.Kill([]uint64{0, 1})
	if got := ix.Search(q, 5, nil); got != nil {
		t.Errorf("all dead: got %v", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("a query of the wrong dimension did not panic")
		}
	}()
	ix.Search([]float32{1, 0}, 1, nil)
}
