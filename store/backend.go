package store

import (
	bolt "go.etcd.io/bbolt"
)

// SetBackend records the retrieval backend of the store (Meta.Backend):
// an opaque description its owner reads back, "" for the embedded
// indexes. A rebuild copies it to the new generation.
func (s *Store) SetBackend(spec string) error { return s.putMeta(keyBackend, spec) }

// SetBackendSeq records the write sequence the backend reflects
// (Meta.BackendSeq), once a write or a replay reached it: the next
// replay starts after it (Replay), and the replay log is kept from it
// on (Batch.PruneLogThrough).
func (s *Store) SetBackendSeq(seq uint64) error {
	if s.readOnly {
		return ErrReadOnly
	}
	return s.update(func(tx *bolt.Tx) error {
		putU64(tx.Bucket(bucketMeta), keyBackendSeq, seq)
		return nil
	})
}
