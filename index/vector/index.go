package vector

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/medkb/medkb/internal/base"
)

// ErrLayout is returned by Append and Load when slots and vectors do not
// describe a positional slab: an ordinal out of sequence, or a vector
// buffer whose length is not len(slots)*Dim().
var ErrLayout = errors.New("medkb: vector slab layout")

// Index is an exact vector index over a slab of normalised vectors, slot i
// holding ordinal i. The zero value is not usable; call New.
type Index struct {
	dim    int
	kernel kernel     // f32KernelFor(dim), or another in tests
	int8k  int8Kernel // int8Scan, or dotsInt8Go in tests
	// source, set by NewInt8, supplies exact vectors; with it vecs stays
	// nil and codes holds the slab.
	source Source
	// workers, if positive, fixes the number of scan goroutines (tests
	// and benchmarks); 0 chooses by slab size (see workersFor).
	workers int
	scratch sync.Pool // *scratch, per-worker buffers

	mu    sync.RWMutex
	slots []base.Slot
	vecs  []float32
	// codes is the int8 form of the slab: always there with a source,
	// otherwise built at the first ScanInt8 search and kept in step.
	codes *codes
	live  int
	mem   memory // where vecs and codes live; see memory.go
}

// New returns an empty index for vectors of dim floats. It panics if dim
// is not positive.
func New(dim int) *Index {
	if dim <= 0 {
		panic(fmt.Sprintf("vector: New(%d): dimension must be positive", dim))
	}
	k, _ := f32KernelFor(dim)
	return &Index{dim: dim, kernel: k, int8k: int8Scan}
}

// Dim returns the vector dimension.
func (ix *Index) Dim() int { return ix.dim }

// Len returns the number of slots, dead ones included; it is also the
// ordinal the next appended slot must carry.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return len(ix.slots)
}

// Live returns the number of alive slots.
func (ix *Index) Live() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.live
}

// Append adds slots at the end of the slab. Their ordinals must be Len(),
// Len()+1, ... in order, and vecs must hold len(slots)*Dim() floats,
// already normalised. Both are copied (an int8 index keeps only the
// vectors' codes). On error nothing is added.
func (ix *Index) Append(slots []base.Slot, vecs []float32) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err := ix.checkLayout(uint64(len(ix.slots)), slots, vecs); err != nil {
		return err
	}
	ix.slots = append(ix.slots, slots...)
	ix.live += countAlive(slots)
	if ix.codes != nil {
		ix.codes.add(&ix.mem, vecs, ix.dim)
	}
	if ix.source != nil {
		return nil
	}
	if need := len(ix.vecs) + len(vecs); need > cap(ix.vecs) {
		grown := ix.mem.floats(max(need, 2*cap(ix.vecs)))
		copy(grown, ix.vecs)
		ix.vecs = grown[:len(ix.vecs)]
	}
	ix.vecs = append(ix.vecs, vecs...)
	return nil
}

// Floats returns n zeroed float32s from the index's slab allocator, for a
// caller that fills a slab to hand to Load. Memory from Floats is released
// by Close.
func (ix *Index) Floats(n int) []float32 { return ix.mem.floats(n) }

// Close releases the slab memory. The index and every view it handed out
// must not be used afterwards.
func (ix *Index) Close() {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.slots, ix.vecs, ix.live = nil, nil, 0
	if ix.codes != nil {
		ix.codes = &codes{stride: ix.codes.stride}
	}
	ix.mem.release()
}

// Reserve makes room for n slots and their codes in all, so that an
// int8 index loading a store's slab segment by segment with Append
// allocates once, rather than doubling (which would hold 1.5 times the
// codes at the peak). An f32 index loads with Load instead.
func (ix *Index) Reserve(n int) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.slots = slices.Grow(ix.slots, n-len(ix.slots))
	if ix.codes != nil {
		ix.codes.reserve(&ix.mem, n)
	}
}

// Kill marks the given ordinals dead. Unknown or already dead ordinals are
// ignored.
func (ix *Index) Kill(ords []uint64) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, ord := range ords {
		if ord < uint64(len(ix.slots)) && ix.slots[ord].Alive {
			ix.slots[ord].Alive = false
			ix.live--
		}
	}
}

// Load replaces the whole content with slots and vecs, which must form a
// slab starting at ordinal 0. Load takes ownership of both slices (the
// store hands over buffers it read in large blocks); the caller must not
// use them afterwards. An int8 index quantises vecs and drops them. On
// error the content is unchanged.
func (ix *Index) Load(slots []base.Slot, vecs []float32) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err := ix.checkLayout(0, slots, vecs); err != nil {
		return err
	}
	// Cap both slices so that a later Append reallocates instead of
	// writing into memory the caller may still hold.
	ix.slots = slots[:len(slots):len(slots)]
	ix.live = countAlive(slots)
	if ix.source != nil {
		ix.codes = &codes{stride: ix.codes.stride}
		ix.codes.add(&ix.mem, vecs, ix.dim)
		return nil
	}
	ix.vecs = vecs[:len(vecs):len(vecs)]
	ix.codes = nil
	return nil
}

// Vector returns a read-only view of the vector at ord, or nil if ord is
// out of range. The view stays valid after later writes to the index. An
// int8 index returns a copy read from its Source, or nil if that fails.
func (ix *Index) Vector(ord uint64) []float32 {
	vs, err := ix.Vectors([]uint64{ord})
	if err != nil {
		return nil
	}
	return vs[0]
}

// Vectors is Vector for several ordinals, in any order: it returns their
// vectors in the order of ords, nil for one out of range. An int8 index
// reads them from its Source in one call, in ascending order, into one
// buffer, rather than a read each; the error is the Source's.
func (ix *Index) Vectors(ords []uint64) ([][]float32, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	out := make([][]float32, len(ords))
	if ix.source == nil {
		for i, ord := range ords {
			if ord < uint64(len(ix.slots)) {
				lo, hi := int(ord)*ix.dim, int(ord+1)*ix.dim
				out[i] = ix.vecs[lo:hi:hi]
			}
		}
		return out, nil
	}
	// Read each ordinal in range once, ascending: want[j]'s vector is
	// row j of buf.
	var want []uint64
	for _, ord := range ords {
		if ord < uint64(len(ix.slots)) {
			want = append(want, ord)
		}
	}
	slices.Sort(want)
	want = slices.Compact(want)
	buf := make([]float32, len(want)*ix.dim)
	err := ix.readSource(want, "read", func(j int, v []float32) {
		copy(buf[j*ix.dim:(j+1)*ix.dim], v)
	})
	if err != nil {
		return nil, err
	}
	for i, ord := range ords {
		if j, ok := slices.BinarySearch(want, ord); ok {
			out[i] = buf[j*ix.dim : (j+1)*ix.dim : (j+1)*ix.dim]
		}
	}
	return out, nil
}

// Slot returns the attributes of the slot at ord, and false if ord is out
// of range.
func (ix *Index) Slot(ord uint64) (base.Slot, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ord >= uint64(len(ix.slots)) {
		return base.Slot{}, false
	}
	return ix.slots[ord], true
}

// checkLayout reports whether slots numbered from first, with vecs, can
// be placed positionally.
func (ix *Index) checkLayout(first uint64, slots []base.Slot, vecs []float32) error {
	if len(vecs) != len(slots)*ix.dim {
		return fmt.Errorf("%w: %d floats for %d slots of dimension %d", ErrLayout, len(vecs), len(slots), ix.dim)
	}
	for i := range slots {
		if want := first + uint64(i); slots[i].Ord != want {
			return fmt.Errorf("%w: slot %d has ordinal %d, want %d", ErrLayout, i, slots[i].Ord, want)
		}
	}
	return nil
}

func countAlive(slots []base.Slot) int {
	n := 0
	for i := range slots {
		if slots[i].Alive {
			n++
		}
	}
	return n
}
