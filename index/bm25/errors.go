package bm25

import (
	"errors"
	"fmt"
)

// The index's own errors. A lock another holder keeps wraps
// store.ErrLocked, a write to an index opened read-only store.ErrReadOnly,
// and a condition Search cannot evaluate base.ErrBadCond: the store owns
// locking and read-only opening for everything under its directory, and
// base owns what a filter condition is.
var (
	// ErrNotFound is returned by Open in read-only mode when dir holds no
	// index.
	ErrNotFound = errors.New("medkb: bm25 index not found")
	// ErrIncompatible is returned by Open when dir holds an index built with
	// another schema (mapping or id encoding); rebuild it from the store.
	ErrIncompatible = errors.New("medkb: bm25 index has an incompatible schema")
	// ErrCorrupt is returned when the index holds something this package
	// never writes (a malformed id or sequence number), when a segment file
	// fails its checksum (Verify), or when bleve panics reading it.
	ErrCorrupt = errors.New("medkb: bm25 index is corrupt")
	// ErrStaleSeq is returned by Apply when seq is below the sequence the
	// index already reflects.
	ErrStaleSeq = errors.New("medkb: bm25 apply sequence goes backwards")
	// ErrEmptyQuery is returned by Search for query text that is empty or
	// only white space.
	ErrEmptyQuery = errors.New("medkb: bm25 query text is empty")
)

// recoverCorrupt, deferred, turns a panic inside bleve into an ErrCorrupt
// error for op: garbled segment files make bleve index out of range
// rather than fail.
func recoverCorrupt(op string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("bm25: %s: %w (bleve panicked: %v)", op, ErrCorrupt, r)
	}
}
