package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/medkb/medkb/internal/fsync"
	bolt "go.etcd.io/bbolt"
)

// ErrBackupDest is returned by Backup when the destination exists and is
// not an empty directory.
var ErrBackupDest = errors.New("medkb: backup destination exists and is not empty")

// Backup writes a consistent copy of s's generation as a new store in
// dest: dest/gen-000001/medkb.db, copied from one read transaction (bbolt's
// Tx.CopyFile, so writers of s are not blocked), then dest/CURRENT. The
// copy holds the system of record only; its derived indexes are built when
// it is first opened read-write. dest must be missing or empty.
//
// CURRENT is written last, after everything is flushed to stable storage,
// so an interrupted backup leaves a directory without CURRENT, which Open
// refuses (ErrNotStore) rather than mistaking for a store.
func (s *Store) Backup(dest string) error {
	empty, err := isEmptyDir(dest)
	if err != nil {
		return err
	}
	if !empty {
		return fmt.Errorf("%w: %s", ErrBackupDest, dest)
	}
	if err := s.checkMetaPages(); err != nil {
		return err
	}
	gen := GenName(1)
	genDir := filepath.Join(dest, gen)
	if err := os.MkdirAll(genDir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(genDir, dbFile)
	err = s.view(func(tx *bolt.Tx) error { return tx.CopyFile(path, 0o644) })
	if err != nil {
		return fmt.Errorf("medkb: backup to %s: %w", dest, err)
	}
	if err := syncTree(genDir); err != nil {
		return fmt.Errorf("medkb: backup to %s: %w", dest, err)
	}
	if err := SetCurrent(dest, gen); err != nil {
		return fmt.Errorf("medkb: backup to %s: %w", dest, err)
	}
	return fsync.Path(filepath.Dir(filepath.Clean(dest)))
}

// checkMetaPages refuses to back up a file with an invalid meta page:
// bbolt reads it as of the other page's (older) transaction, so the copy
// would pass its check while lacking the last write. A meta page a
// concurrent commit is writing can read torn, so a bad one is read again
// once before it counts.
func (s *Store) checkMetaPages() error {
	for try := 0; ; try++ {
		bf, err := openBoltFile(s.Path())
		if err != nil {
			return err
		}
		problems := bf.metaProblems()
		bf.Close()
		if len(problems) == 0 {
			return nil
		}
		if try == 1 {
			return fmt.Errorf("medkb: not backing up a store that fails its check (run medkb check): %w", problems[0])
		}
		time.Sleep(50 * time.Millisecond)
	}
}
