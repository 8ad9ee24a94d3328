package medkb

import (
	"context"
	"errors"
	"fmt"

	"github.com/medkb/medkb/store"
)

// Backup writes a consistent copy of the store in dir to dest (missing or
// empty), builds the copy's BM25 index, checks it and returns its
// statistics. It opens dir read-only: readers and rebuilds go on, a writer
// in another process makes it wait up to opts.LockTimeout. Of opts only
// LockTimeout, Embedder and EmbedServer (which the copy's check needs to
// recreate the store's embedder) matter. In a process that holds dir open
// read-write, Backup is that DB's (DB.Backup). A DB that is open already can use DB.Backup.
func Backup(ctx context.Context, dir, dest string, opts *Options) (*Stats, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if db := writerIn(dir); db != nil {
		return db.Backup(ctx, dest)
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	st, err := store.Open(dir, &store.Options{ReadOnly: true, LockTimeout: o.LockTimeout})
	if err != nil {
		return nil, err
	}
	err = st.Backup(dest)
	if err := errors.Join(err, st.Close()); err != nil {
		return nil, err
	}
	return verifyCopy(ctx, dir, dest, &Options{LockTimeout: o.LockTimeout, Embedder: o.Embedder, EmbedServer: o.EmbedServer})
}

// Backup is the package-level Backup taken through db: the copy comes from
// one read transaction of the generation db has open, so it is hot even
// for a read-write db (its writes go on; one that must grow the file waits
// for the copy to finish).
func (db *DB) Backup(ctx context.Context, dest string) (*Stats, error) {
	g, release, err := db.snapshot()
	if err != nil {
		return nil, err
	}
	err = g.st.Backup(dest)
	release()
	if err != nil {
		return nil, err
	}
	return verifyCopy(ctx, db.dir, dest, &Options{LockTimeout: db.opts.LockTimeout, Embedder: db.emb})
}

// verifyCopy opens a fresh copy of dir read-write, which builds its BM25
// index from the system of record, and checks it. The copy holds dir's
// pages as they are, so damage found in it is dir's: the error says so.
func verifyCopy(ctx context.Context, dir, dest string, opts *Options) (*Stats, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, err := Open(dest, opts)
	if err == nil {
		err = c.verify()
		if err == nil {
			defer c.Close()
			return c.Stats()
		}
		c.Close()
	}
	if errors.Is(err, store.ErrCorrupt) || errors.Is(err, ErrInconsistent) {
		err = fmt.Errorf("medkb: the backup of %s fails its check, so %s is damaged (run medkb check on it): %w", dir, dir, err)
	}
	return nil, err
}
