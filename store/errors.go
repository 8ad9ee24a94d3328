package store

import "errors"

var (
	// ErrNotStore is returned when a directory exists, is not empty and has
	// no CURRENT file.
	ErrNotStore = errors.New("medkb: not a medkb store")
	// ErrCorrupt is wrapped by every error that finds the store damaged: a
	// CURRENT that names no generation or one without its bbolt file, a
	// file that is empty, truncated or not a medkb file, a damaged page, a
	// record that fails its checksum or does not decode. The message names
	// the file and, where known, the page or the record.
	ErrCorrupt = errors.New("medkb: store is corrupt")
	// ErrWouldLoseData is returned by WriterLock.Prune (and so by a
	// rebuild) when removing generations could lose documents: the live
	// generation is unreadable, has lost documents, or holds fewer than
	// another generation that is not its predecessor.
	ErrWouldLoseData = errors.New("medkb: refusing to remove generations")
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
