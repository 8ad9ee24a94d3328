package store

import "errors"

var (
	// ErrNotStore is returned when a directory exists, is not empty and has
	// no CURRENT file, or CURRENT names no generation.
	ErrNotStore = errors.New("medkb: not a medkb store")
	// ErrNewerSchema is returned when the store was written by a newer medkb.
	ErrNewerSchema = errors.New("medkb: store has a newer schema version")
	// ErrLocked is returned when another process holds the store's lock
	// longer than Options.LockTimeout.
	ErrLocked = errors.New("medkb: store is locked by another process")
	// ErrEmbedderMismatch is returned when a write uses an embedder or
	// dimension other than the one that built the store.
	ErrEmbedderMismatch = errors.New("medkb: embedder mismatch")
	// ErrReadOnly is returned by writes to a store opened read-only.
	ErrReadOnly = errors.New("medkb: store is open read-only")
	// ErrMissing is returned when a store directory does not exist and the
	// store is opened read-only.
	ErrMissing = errors.New("medkb: store does not exist")
	// ErrNotFound is returned when a named document does not exist.
	ErrNotFound = errors.New("medkb: no such document")
)
