//go:build linux

package vector

import (
	"syscall"
	"unsafe"
)

// Advice values from linux/mman.h that package syscall does not name.
const (
	madvHugepage      = 14
	madvPopulateWrite = 23
)

// minMapped is the size below which the Go heap is the better allocator.
const minMapped = 4 << 20

// allocFloats maps n float32s of anonymous memory with huge pages,
// populated up front; it falls back to the Go heap for small sizes or when
// mapping fails. mapping is nil for heap memory.
func allocFloats(n int) (f []float32, mapping []byte) {
	size := 4 * n
	if size < minMapped {
		return make([]float32, n), nil
	}
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]float32, n), nil
	}
	// Both pieces of advice are hints: a kernel without them leaves the
	// pages to be faulted in on first touch, which is only slower.
	_ = syscall.Madvise(b, madvHugepage)
	_ = syscall.Madvise(b, madvPopulateWrite)
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), n), b
}

func freeMapping(b []byte) { _ = syscall.Munmap(b) }
