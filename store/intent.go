package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// intentFile is where a writer announces that it waits for bbolt's
// exclusive lock, so that readers stop coming (see doc.go, "Locks").
const intentFile = "INTENT"

// waitLock takes a lock on f with try, retrying until deadline, and
// reports whether it got it.
func waitLock(f *os.File, try func(*os.File) (bool, error), deadline time.Time) (bool, error) {
	for {
		got, err := try(f)
		if got || err != nil || !time.Now().Before(deadline) {
			return got, err
		}
		time.Sleep(lockRetry)
	}
}

// openIntent opens dir's INTENT file, creating it; a reader that may not
// create it opens it read-only, and one that cannot open it at all gets
// nil and goes without (no writer ever made it, or the store is not its
// own to write).
func openIntent(dir string, readOnly bool) (*os.File, error) {
	path := filepath.Join(dir, intentFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil && readOnly {
		if f, err = os.Open(path); err != nil {
			return nil, nil
		}
	}
	return f, err
}

// openBolt opens the bbolt file path of generation gen of dir under the
// intent protocol, waiting up to opts.Timeout in all. A writer (the
// holder of the writer lock) takes INTENT exclusively, then waits for
// bbolt's exclusive flock, which the readers that have the file open hold
// off while new ones wait at INTENT; it lets INTENT go once bbolt is
// open. A reader takes INTENT shared only to try bbolt's shared flock
// once, and tries again until its deadline: it never holds INTENT while
// it waits, so a reader waiting for one writer never holds up another
// (a DB's rebuild, which holds the old generation, takes INTENT to open
// the new one).
func openBolt(dir, gen, path string, opts *bolt.Options) (*bolt.DB, error) {
	deadline := time.Now().Add(opts.Timeout)
	try, once := tryLock, *opts
	if opts.ReadOnly {
		try, once.Timeout = tryLockShared, time.Nanosecond // one try of bbolt's flock
	}
	for {
		intent, err := openIntent(dir, opts.ReadOnly)
		if err != nil {
			return nil, fmt.Errorf("medkb: %w", err)
		}
		if intent != nil {
			got, err := waitLock(intent, try, deadline)
			if err != nil || !got {
				intent.Close()
			}
			if err != nil {
				return nil, fmt.Errorf("medkb: %s: %w", intent.Name(), err)
			}
			if !got {
				return nil, lockedError(dir, gen, opts)
			}
		}
		if !opts.ReadOnly {
			once.Timeout = max(time.Until(deadline), time.Nanosecond)
		}
		var db *bolt.DB
		err = guard(path, nil, func() (err error) {
			db, err = bolt.Open(path, 0o644, &once)
			return err
		})
		if intent != nil {
			intent.Close() // drops its flock
		}
		if !errors.Is(err, bolterrors.ErrTimeout) {
			return db, err
		}
		if !time.Now().Before(deadline) {
			return nil, lockedError(dir, gen, opts)
		}
		time.Sleep(lockRetry)
	}
}

// lockedError is ErrLocked for an open that waited in vain, naming who
// holds the store: for a writer, the readers of gen (readersOf); for a
// reader, the writer (its lock file).
func lockedError(dir, gen string, opts *bolt.Options) error {
	who := ""
	if opts.ReadOnly {
		if f, err := os.Open(filepath.Join(dir, lockFile)); err == nil {
			if got, _ := tryLock(f); !got {
				who = "a writer" + strings.TrimSuffix(lockHolder(f), ",") + " holds it; "
			}
			f.Close()
		}
	} else if rs := readersOf(dir, gen); len(rs) > 0 {
		who = "readers: " + strings.Join(rs, ", ") + "; "
	}
	return fmt.Errorf("%w (%swaited %s for %s; try again later or raise --lock-timeout)", ErrLocked, who, opts.Timeout, dir)
}

// WriterWaiting reports whether a writer has announced that it waits for
// the readers of the store in dir (it holds INTENT exclusively): a reader
// that is idle can let its generation go and open it again later, rather
// than hold the writer off until it times out.
func WriterWaiting(dir string) bool {
	f, err := os.Open(filepath.Join(dir, intentFile))
	if err != nil {
		return false
	}
	defer f.Close()
	got, err := tryLockShared(f)
	return err == nil && !got
}
