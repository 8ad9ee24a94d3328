package store

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// view runs fn in a bbolt read transaction, update in a write
// transaction, both under guard.
func (s *Store) view(fn func(*bolt.Tx) error) error {
	return guard(s.Path(), s.db, func() error { return s.db.View(fn) })
}

func (s *Store) update(fn func(*bolt.Tx) error) error {
	err := guard(s.Path(), s.db, func() error { return s.db.Update(fn) })
	var pe *panicError
	if errors.As(err, &pe) {
		s.broken = true // bbolt's rollback may not have run to the end
	}
	return err
}

// guard runs fn, which reads the bbolt file at path, and turns what a
// damaged file does to bbolt into an ErrCorrupt naming the file: a panic
// (bbolt asserts on pages that name another page or have no valid type)
// and a memory fault reading the mapping (a page id past the end of the
// file; debug.SetPanicOnFault makes the runtime panic instead of dying of
// SIGBUS or SIGSEGV). It also fills in the file of the corruptErrors fn
// returns. db, when open, locates a faulting address's page. This
// package's own assertions (panics whose message starts "medkb: ", such as
// Write's for a document without a tier) are a caller's bug, not damage,
// and go on panicking.
//
// SetPanicOnFault holds for the calling goroutine only: a goroutine that
// bbolt starts (Tx.Check) is not covered, so Check runs bbolt's own check
// only on a file whose pages checkPages found sound.
func guard(path string, db *bolt.DB, fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if msg, ok := r.(string); ok && strings.HasPrefix(msg, "medkb: ") {
				panic(r) // this package's own assertion: a caller's bug, not damage
			}
			err = &corruptError{path: path, msg: panicMessage(db, r)}
			err = &panicError{err}
		}
		err = inFile(path, err)
	}()
	return fn()
}

// inFile names path in err when err is an ErrCorrupt that names no file.
func inFile(path string, err error) error {
	var ce *corruptError
	if errors.As(err, &ce) && ce.path == "" {
		ce.path = path
	}
	return err
}

// panicError marks an ErrCorrupt that came from a recovered panic.
type panicError struct{ error }

func (e *panicError) Unwrap() error { return e.error }

// panicMessage says what a recovered panic means, naming the page of a
// faulting address.
func panicMessage(db *bolt.DB, r any) string {
	type addr interface{ Addr() uintptr }
	if a, ok := r.(addr); ok && db != nil {
		if page, ok := faultPage(db, a.Addr()); ok {
			return fmt.Sprintf("page %d: memory fault reading it: the file is damaged (a page number beyond its end) or was cut short", page)
		}
		return fmt.Sprintf("memory fault at %#x reading the file: it is damaged or was cut short", a.Addr())
	}
	return fmt.Sprintf("bbolt failed on a damaged page: %v", r)
}

// faultPage converts an address inside db's mapping to a page number.
func faultPage(db *bolt.DB, addr uintptr) (page uint64, ok bool) {
	defer func() {
		if recover() != nil { // Info asserts that the file is mapped
			ok = false
		}
	}()
	info := db.Info()
	if addr < info.Data || info.PageSize <= 0 {
		return 0, false
	}
	return uint64(addr-info.Data) / uint64(info.PageSize), true
}
