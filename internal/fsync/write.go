package fsync

import (
	"os"
	"path/filepath"
	"time"
)

// staleTemp is the age past which a temporary file of WriteFile is taken
// for the leftover of a writer that crashed: writing never takes that
// long.
const staleTemp = 10 * time.Minute

// WriteFile replaces the file at path with data atomically and durably:
// it writes a temporary file beside it, syncs it, renames it over path
// and syncs the directory. A crash leaves either the old file or the new
// one, never a part of either; readers never see a partial file.
// Concurrent writers of one path do not disturb each other (the last
// rename wins). Temporary files of path that a crashed writer left are
// removed.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	pattern := base + ".tmp-"
	if old, err := filepath.Glob(filepath.Join(dir, pattern+"*")); err == nil {
		for _, o := range old {
			if fi, err := os.Stat(o); err == nil && time.Since(fi.ModTime()) > staleTemp {
				os.Remove(o) // best effort: a failure leaves litter, not damage
			}
		}
	}
	f, err := os.CreateTemp(dir, pattern+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return Path(dir)
}
