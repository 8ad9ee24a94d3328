//go:build linux

package store

import (
	"os"
	"syscall"
	"unsafe"
)

// faultAround is the aligned block released around what was read. A
// read fault of a file page maps more than that page: its neighbours
// (fault-around, 64 KiB by default) and, where the page cache holds the
// file in large folios (ext4 on recent kernels), the whole folio, up to
// 2 MiB. Releasing only the pages read left 410 MB of a 2 GB store
// resident after loading it as int8; releasing their 2 MiB blocks, 66 MB.
const faultAround = 2 << 20

var block = uintptr(max(os.Getpagesize(), faultAround))

// releaseMapped drops the pages of b, a value read in place from bbolt's
// mapping of the file, from the process's resident set (MADV_DONTNEED).
// The mapping is a read-only shared mapping of the file, so nothing is
// lost: the kernel keeps the data in its page cache and a later read
// faults the page back in. Without it, every page an int8 index reads
// to quantise or rescore would stay counted in the process's memory, and
// a 1M x 384 store would be resident at 1.5 GB again. Reading b also
// mapped its neighbours (see faultAround), so the aligned blocks around
// it are released whole, clipped to the file's mapping, [base,
// base+size): beyond it may lie the Go heap, which MADV_DONTNEED would
// zero. A neighbour released only faults back in. It is a hint: an
// error is ignored.
func releaseMapped(b []byte, base uintptr, size int64) {
	if len(b) > 0 {
		start := uintptr(unsafe.Pointer(&b[0]))
		releaseRange(start, start+uintptr(len(b)), base, size)
	}
}

// releaseRange is releaseMapped for the addresses [start, end); with
// start = base and end = base+size it releases the whole mapping, which
// a load does at its end for the blocks that neighbours faulted back in.
func releaseRange(start, end, base uintptr, size int64) {
	if size <= 0 || start < base || end > base+uintptr(size) {
		return // not in the mapping: not bbolt's in-place value
	}
	lo := max(base, start&^(block-1))
	hi := min(base+uintptr(size), (end+block-1)&^(block-1))
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, syscall.MADV_DONTNEED)
}
