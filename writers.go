package medkb

import (
	"path/filepath"
	"sync"
)

// openWriters maps each store directory this process holds open
// read-write to its DB, so that the package-level Rebuild, Backup and
// Check, called beside it in the same process, go through it: they would
// otherwise wait for the writer lock it holds and fail. Keys are
// canonical paths (storeKey).
var openWriters sync.Map

// storeKey names dir the same however it is spelt: absolute, cleaned,
// symbolic links resolved when they resolve.
func storeKey(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return filepath.Clean(dir)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// writerIn returns the DB this process holds open read-write on dir, or
// nil.
func writerIn(dir string) *DB {
	if db, ok := openWriters.Load(storeKey(dir)); ok {
		return db.(*DB)
	}
	return nil
}
