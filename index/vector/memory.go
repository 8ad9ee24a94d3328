package vector

import (
	"sync"
	"unsafe"
)

// memory hands out float32 storage for slabs and releases it all at once.
//
// A 100k x 384 slab is 150 MB. Taken from the Go heap, every 4 KiB page
// of it is faulted in and zeroed one at a time on first touch; on the
// virtual machines medkb was measured on that costs about 20 microseconds
// a page, close to a second for one slab, paid again at every growth of
// the slab during ingest. On Linux, memory instead comes from anonymous
// mappings advised to use huge pages and populated in one call
// (MADV_POPULATE_WRITE): 12 ms for the same 150 MB there. Older kernels
// without that advice fall back to faulting pages in on touch.
//
// Views handed out by Vector must stay valid after the slab grows, so
// superseded allocations are kept until release (at most twice the final
// size, as with append's doubling).
type memory struct {
	mu       sync.Mutex
	mappings [][]byte
}

// floats returns n zeroed float32s.
func (m *memory) floats(n int) []float32 {
	if n == 0 {
		return nil
	}
	f, mapping := allocFloats(n)
	if mapping != nil {
		m.mu.Lock()
		m.mappings = append(m.mappings, mapping)
		m.mu.Unlock()
	}
	return f
}

// bytes returns n zeroed int8s, for int8 codes.
func (m *memory) bytes(n int) []int8 {
	if n == 0 {
		return nil
	}
	f := m.floats((n + 3) / 4)
	return unsafe.Slice((*int8)(unsafe.Pointer(&f[0])), n)
}

// release frees every allocation; the floats must not be used afterwards.
func (m *memory) release() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, b := range m.mappings {
		freeMapping(b)
	}
	m.mappings = nil
}
