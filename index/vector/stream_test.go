package vector

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// TestScanF32OnInt8 checks ScanF32 on an int8 index, which streams the
// float32 vectors from its Source, against ScanF32 on an f32 index over
// the same vectors: the same hits, in the same order, with bit-identical
// scores, across sizes (empty, 1, k-1, k, k+1, more than one streamBlock),
// k, dimensions (the AVX2 kernel's and vek's), kernels, workers of the f32
// index, slots dead at load and killed later, duplicate vectors (exact
// ties) and Match filters. The int8 index reads each alive matching slot's
// vector once, in ascending order (sliceSource checks it), and no other.
func TestScanF32OnInt8(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 8))
	filters := []struct {
		name  string
		match Match
	}{
		{"all", nil},
		{"T1orT2", func(s *base.Slot) bool { return s.Tier <= base.T2 }},
		{"patient3", func(s *base.Slot) bool { return s.Patient == 3 }},
		{"none", func(*base.Slot) bool { return false }},
	}
	big := streamBlock + 900
	if testing.Short() {
		big = 1500
	}
	for _, dim := range []int{384, 100} {
		kernels := map[string]kernel{"go": scoreGo, "vek": scoreSIMD}
		if f32Rows16 != nil && dim%16 == 0 {
			kernels[f32Rows16Name] = f32Rows16
		}
		for _, n := range []int{0, 1, 2, 9, 10, 11, 49, 50, 51, big} {
			f32, q8, src := streamPair(rng, n, dim)
			queries := [][]float32{randomUnit(rng, 1, dim), randomUnit(rng, 1, dim)}
			if n > 3 {
				queries = append(queries, slices.Clone(src.vecs[3*dim:4*dim])) // ties with its duplicates
			}
			for kname, kern := range kernels {
				f32.kernel, q8.kernel = kern, kern
				for qi, q := range queries {
					for _, k := range []int{1, 10, 50} {
						for _, f := range filters {
							label := fmt.Sprintf("dim=%d n=%d kernel=%s query=%d k=%d filter=%s", dim, n, kname, qi, k, f.name)
							src.reads.Store(0)
							got, err := q8.SearchWith(q, k, f.match, ScanF32)
							if err != nil {
								t.Fatalf("%s: %v", label, err)
							}
							if want := aliveMatching(q8, f.match); src.reads.Load() != int64(want) {
								t.Fatalf("%s: read %d vectors, want %d (the alive matching slots)", label, src.reads.Load(), want)
							}
							for _, workers := range []int{1, 3} {
								f32.workers = workers
								want, err := f32.SearchWith(q, k, f.match, ScanF32)
								if err != nil {
									t.Fatal(err)
								}
								if !sameBits(got, want) || (got == nil) != (want == nil) {
									t.Fatalf("%s workers=%d:\nint8 index %v\nf32 index  %v", label, workers, got, want)
								}
							}
						}
					}
				}
			}
			if hits, err := q8.SearchWith(queries[0], 0, nil, ScanF32); hits != nil || err != nil {
				t.Errorf("dim=%d n=%d k=0: %v %v", dim, n, hits, err)
			}
		}
	}
}

// streamPair returns an f32 index and an int8 index over the same n
// random vectors (rows 7 and 11 duplicates of row 3), with random tiers
// and patients, about one slot in seven dead at load and every
// thirteenth killed afterwards, and the int8 index's Source.
func streamPair(rng *rand.Rand, n, dim int) (f32, q8 *Index, src *sliceSource) {
	vecs := randomUnit(rng, n, dim)
	for _, dup := range []int{7, 11} {
		if dup < n {
			copy(vecs[dup*dim:(dup+1)*dim], vecs[3*dim:4*dim])
		}
	}
	slots := randomSlots(n)
	for i := range slots {
		slots[i].Tier = base.Tier(1 + rng.IntN(4))
		slots[i].Patient = uint32(rng.IntN(5))
		slots[i].Alive = i == 3 || rng.IntN(7) != 0
	}
	f32 = New(dim)
	src = &sliceSource{dim: dim, vecs: vecs}
	q8 = NewInt8(dim, src)
	for _, ix := range []*Index{f32, q8} {
		if err := ix.Load(slices.Clone(slots), slices.Clone(vecs)); err != nil {
			panic(err)
		}
	}
	var kill []uint64
	for o := 12; o < n; o += 13 {
		kill = append(kill, uint64(o))
	}
	f32.Kill(kill)
	q8.Kill(kill)
	return f32, q8, src
}

// aliveMatching counts the alive slots of ix that match.
func aliveMatching(ix *Index, match Match) int {
	n := 0
	for i := range ix.slots {
		if s := &ix.slots[i]; s.Alive && (match == nil || match(s)) {
			n++
		}
	}
	return n
}

// sameBits reports whether a and b hold the same ordinals in the same
// order with bit-identical scores.
func sameBits(a, b []Hit) bool {
	return slices.EqualFunc(a, b, func(x, y Hit) bool {
		return x.Ord == y.Ord && math.Float32bits(x.Score) == math.Float32bits(y.Score)
	})
}

// failingSource fails its call number fail (from 1), or gives one
// vector too few on it when short is set.
type failingSource struct {
	sliceSource
	calls, fail int
	short       bool
}

var errSource = errors.New("source failed")

func (s *failingSource) Vectors(ords []uint64, fn func(int, []float32)) error {
	s.calls++
	if s.calls != s.fail {
		return s.sliceSource.Vectors(ords, fn)
	}
	if s.short {
		return s.sliceSource.Vectors(ords[:len(ords)-1], fn)
	}
	return errSource
}

// TestScanF32OnInt8SourceError: a Source that fails, on the first or a
// later block, fails the ScanF32 search with its error, and one that
// gives fewer vectors than asked fails it too; a search after that,
// with the Source well again, works.
func TestScanF32OnInt8SourceError(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 32))
	const dim, n = 16, 3 * streamBlock
	vecs := randomUnit(rng, n, dim)
	q := randomUnit(rng, 1, dim)
	f32 := New(dim)
	if err := f32.Load(randomSlots(n), slices.Clone(vecs)); err != nil {
		t.Fatal(err)
	}
	want, _ := f32.SearchWith(q, 5, nil, ScanF32)
	for _, fail := range []int{1, 2, 3} {
		for _, short := range []bool{false, true} {
			src := &failingSource{sliceSource: sliceSource{dim: dim, vecs: vecs}, fail: fail, short: short}
			ix := NewInt8(dim, src)
			if err := ix.Load(randomSlots(n), slices.Clone(vecs)); err != nil {
				t.Fatal(err)
			}
			hits, err := ix.SearchWith(q, 5, nil, ScanF32)
			if short && (err == nil || errors.Is(err, errSource)) || !short && !errors.Is(err, errSource) || hits != nil {
				t.Errorf("fail=%d short=%v: hits %v, err %v", fail, short, hits, err)
			}
			if src.calls != fail {
				t.Errorf("fail=%d short=%v: %d calls to the Source, want it to stop at the failure", fail, short, src.calls)
			}
			if got, err := ix.SearchWith(q, 5, nil, ScanF32); err != nil || !sameBits(got, want) {
				t.Errorf("fail=%d short=%v: the next search gave %v, %v; want %v", fail, short, got, err, want)
			}
		}
	}
}

// TestScanF32OnInt8BesideWrites runs streamed f32 scans while slots are
// appended and killed (under -race: the scan reads the slots only under
// the read lock, and not while the Source reads).
func TestScanF32OnInt8BesideWrites(t *testing.T) {
	const n, dim, k = 4 * streamBlock, 32, 10
	rng := rand.New(rand.NewPCG(5, 5))
	vecs := randomUnit(rng, n, dim)
	slots := randomSlots(n)
	ix := NewInt8(dim, &sliceSource{dim: dim, vecs: vecs})
	if err := ix.Load(slots[:n/2], vecs[:n/2*dim]); err != nil {
		t.Fatal(err)
	}
	q := vecs[:dim]
	done := make(chan struct{})
	go func() {
		defer close(done)
		for lo := n / 2; lo < n; lo += 512 {
			if err := ix.Append(slots[lo:lo+512], vecs[lo*dim:(lo+512)*dim]); err != nil {
				t.Error(err)
				return
			}
			ix.Kill([]uint64{uint64(lo - 1)})
		}
	}()
	for range 20 {
		hits, err := ix.SearchWith(q, k, nil, ScanF32)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != k || hits[0].Ord != 0 || !slices.IsSortedFunc(hits, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) }) {
			t.Fatalf("hits %v", hits)
		}
	}
	<-done
}
