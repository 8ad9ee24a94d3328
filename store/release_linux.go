//go:build linux

package store

import (
	"os"
	"syscall"
	"unsafe"
)

var pageSize = uintptr(os.Getpagesize())

// releaseMapped drops the pages of b, a value read in place from bbolt's
// mapping of the file, from the process's resident set (MADV_DONTNEED).
// The mapping is a read-only shared mapping of the file, so nothing is
// lost: the kernel keeps the data in its page cache and a later read
// faults the page back in. Without it, every page an int8 index reads
// to quantise or rescore would stay counted in the process's memory, and
// a 1M x 384 store would be resident at 1.5 GB again. The pages covering
// b are released whole, neighbours' bytes included, which only costs
// them a fault. It is a hint: an error is ignored.
func releaseMapped(b []byte) {
	if len(b) == 0 {
		return
	}
	start := uintptr(unsafe.Pointer(&b[0]))
	lo := start &^ (pageSize - 1)
	hi := (start + uintptr(len(b)) + pageSize - 1) &^ (pageSize - 1)
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, syscall.MADV_DONTNEED)
}
