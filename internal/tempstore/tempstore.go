package tempstore

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/internal/base"
)

// Store is an open temporary store and how long ingesting its
// documents took.
type Store struct {
	*medkb.DB
	Ingest time.Duration
	dir    string
}

// Open ingests docs into a new store in a temporary directory whose name
// starts with prefix.
func Open(ctx context.Context, prefix string, docs []base.Doc) (*Store, error) {
	return OpenWith(ctx, prefix, docs, nil)
}

// OpenWith is Open with opts for the new store (nil: the defaults).
func OpenWith(ctx context.Context, prefix string, docs []base.Doc, opts *medkb.Options) (*Store, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	db, err := medkb.Open(filepath.Join(dir, "kb"), opts)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s := &Store{DB: db, dir: dir}
	start := time.Now()
	in := make([]medkb.Doc, len(docs))
	for i, d := range docs {
		in[i] = medkb.Doc(d)
	}
	if _, err := db.Ingest(ctx, in); err != nil {
		s.Close()
		return nil, err
	}
	s.Ingest = time.Since(start)
	return s, nil
}

// Close drops the store's collection from its retrieval backend, when
// it has one, closes the store and removes its directory.
func (s *Store) Close() error {
	err := s.DB.DropBackend(context.Background())
	if cerr := s.DB.Close(); err == nil {
		err = cerr
	}
	if rerr := os.RemoveAll(s.dir); err == nil {
		err = rerr
	}
	return err
}
