package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/medkb/medkb/internal/fsync"
)

// lockFile is the store-wide writer lock, beside CURRENT.
const lockFile = "LOCK"

// lockRetry is how often a waiting writer tries the lock again.
const lockRetry = 50 * time.Millisecond

// WriterLock is the store-wide writer lock (kb/LOCK): an exclusive flock
// held by every writer (a read-write Open, a rebuild) for as long as it
// writes. Readers never take it. It keeps an ingest from writing into a
// generation that a rebuild is about to replace, and it is what entitles
// its holder to publish and prune generations.
//
// The lock belongs to the open file, so it is released when the holder
// calls Release, exits or is killed; a crashed writer never leaves a stale
// lock behind.
type WriterLock struct {
	dir string
	f   *os.File
	// holder is the read-write Store that owns the lock, if any: Prune
	// reads the live generation through it when it is that one, since
	// opening it again would wait for holder's own bbolt lock.
	holder *Store
}

// LockWriter takes the writer lock of the store in dir, waiting up to
// timeout (zero means DefaultLockTimeout) while another process holds it;
// then it fails with ErrLocked. dir must exist and be a store or empty: a
// foreign directory is refused (ErrNotStore) before anything is written in
// it, a missing one gives ErrMissing.
func LockWriter(dir string, timeout time.Duration) (*WriterLock, error) {
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}
	if err := checkStoreDir(dir); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrMissing, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("medkb: writer lock: %w", err)
	}
	got, err := waitLock(f, tryLock, time.Now().Add(timeout))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("medkb: writer lock %s: %w", f.Name(), err)
	}
	if !got {
		holder := lockHolder(f)
		f.Close()
		return nil, fmt.Errorf("%w (a writer%s holds %s; waited %s; try again later or raise --lock-timeout)",
			ErrLocked, holder, dir, timeout)
	}
	// Record who holds it, for the error message of those who wait (best
	// effort: the message only loses the holder).
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(holderRecord()), 0)
	}
	return &WriterLock{dir: dir, f: f}, nil
}

// lockHolder names the process recorded in the lock file, as
// ", pid N (PROGRAM),".
func lockHolder(f *os.File) string {
	pid, program, _, ok := readHolder(f)
	if !ok {
		return ""
	}
	return ", " + describeHolder(pid, program) + ","
}

// programName says which program this is, for a lock's holder: the
// executable's name and, when the first argument is a word, that too
// ("medkb ingest"), never more of the command line, which may hold a
// patient's data.
func programName() string {
	if len(os.Args) == 0 {
		return ""
	}
	name := filepath.Base(os.Args[0])
	if len(os.Args) > 1 && isWord(os.Args[1]) {
		name += " " + os.Args[1]
	}
	return name
}

// isWord reports whether s is a subcommand-like word: letters only.
func isWord(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return true
}

// Release gives the lock up. Calling it twice is harmless.
func (l *WriterLock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the file drops the flock
	l.f = nil
	return err
}

// Dir returns the store directory the lock guards.
func (l *WriterLock) Dir() string { return l.dir }

// checkStoreDir accepts a directory that is missing, empty (but for LOCK)
// or has a CURRENT file.
func checkStoreDir(dir string) error {
	_, err := Current(dir)
	if !errors.Is(err, ErrNotStore) {
		return err
	}
	empty, eerr := isEmptyDir(dir)
	switch {
	case eerr != nil:
		return eerr
	case !empty:
		return err
	}
	return nil
}

// Publish makes generation gen the live one: it flushes every directory of
// the generation to stable storage, so that no entry the new CURRENT
// depends on can be lost in a power failure, and then replaces CURRENT
// atomically. Readers move to gen at their next query.
func (l *WriterLock) Publish(gen string) error {
	if l.f == nil {
		panic("medkb: store.WriterLock.Publish after Release")
	}
	if err := syncTree(filepath.Join(l.dir, gen)); err != nil {
		return fmt.Errorf("medkb: publish %s: %w", gen, err)
	}
	return SetCurrent(l.dir, gen)
}

// Prune removes every generation directory except the live one that no
// process has open, and reports which it removed and which it left
// because they are still open (a reader that has not yet moved on). A
// generation newer than CURRENT is the leftover of an interrupted rebuild;
// the same rule removes it, since only the holder of this lock creates
// generations.
//
// "Open" means that some process holds bbolt's flock on the generation's
// medkb.db (readers hold a shared one): Prune takes a non-blocking
// exclusive flock and removes the directory only if it gets it.
//
// Prune removes nothing and returns ErrWouldLoseData when that could lose
// documents: when the live generation does not open, or its document
// counter disagrees with its records; when another generation holds more
// documents than the live one and is not the generation the live one was
// rebuilt from or older (Meta.From), so that CURRENT may name the wrong
// one; or when another generation is a bbolt file that does not open, so
// that what it holds is unknown.
func (l *WriterLock) Prune() (removed, inUse []string, err error) {
	if l.f == nil {
		panic("medkb: store.WriterLock.Prune after Release")
	}
	cur, err := Current(l.dir)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrWouldLoseData, err)
	}
	var live generationSurvey
	if h := l.holder; h != nil && h.gen == cur {
		live, err = survey(h)
	} else {
		live, err = surveyGeneration(l.dir, cur)
	}
	if err == nil && live.keys != live.meta.Docs {
		err = corruptFile(filepath.Join(l.dir, cur, dbFile), "its counter says %d documents, its records are %d: it lost documents", live.meta.Docs, live.keys)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: the live generation %s: %w", ErrWouldLoseData, cur, err)
	}
	names, err := Generations(l.dir)
	if err != nil {
		return nil, nil, err
	}
	from, _ := genNumber(live.meta.From)
	var doomed []string
	for _, name := range names {
		if name == cur {
			continue
		}
		n, _ := genNumber(name)
		g, err := surveyGeneration(l.dir, name)
		switch {
		case errors.Is(err, ErrLocked):
			inUse = append(inUse, name)
			continue
		case err != nil && g.bolt && !errors.Is(err, errNotMedkb):
			return nil, nil, fmt.Errorf("%w: %s does not open, so what it holds is unknown (%w); move it out of %s by hand if it is garbage",
				ErrWouldLoseData, name, err, l.dir)
		case err == nil && g.meta.Docs > live.meta.Docs && n > from:
			return nil, nil, fmt.Errorf("%w: %s holds %d documents, the live generation %s only %d, and it is not one %s replaced; "+
				"CURRENT may name the wrong generation: point it at the one you want (echo %s > %s) and run medkb check",
				ErrWouldLoseData, name, g.meta.Docs, cur, live.meta.Docs, cur, name, filepath.Join(l.dir, currentFile))
		}
		doomed = append(doomed, name)
	}
	for _, name := range doomed {
		gone, err := removeIfUnused(filepath.Join(l.dir, name))
		if err != nil {
			return removed, inUse, fmt.Errorf("medkb: prune %s: %w", name, err)
		}
		if gone {
			removed = append(removed, name)
		} else {
			inUse = append(inUse, name)
		}
	}
	return removed, inUse, nil
}

// generationSurvey is what Prune reads of a generation.
type generationSurvey struct {
	meta Meta
	keys int  // records in the docs bucket
	bolt bool // the file is a valid bbolt file, whether or not it opens
}

// surveyGeneration opens generation gen read-only and reads its counters
// and the number of its document records. bolt is set when the file passed
// openBoltFile, so that an error after that (other than errNotMedkb) is
// damage to a real store, not the torn start of an interrupted rebuild.
func surveyGeneration(dir, gen string) (generationSurvey, error) {
	var g generationSurvey
	s, err := Open(dir, &Options{ReadOnly: true, Generation: gen, LockTimeout: lockRetry})
	if err != nil {
		if bf, ferr := openBoltFile(filepath.Join(dir, gen, dbFile)); ferr == nil {
			g.bolt = true
			bf.Close()
		}
		return g, err
	}
	defer s.Close()
	return survey(s)
}

// survey reads what Prune needs of the open generation s.
func survey(s *Store) (generationSurvey, error) {
	g := generationSurvey{bolt: true}
	var err error
	if g.meta, err = s.Meta(); err != nil {
		return g, err
	}
	err = s.view(func(tx *bolt.Tx) error {
		g.keys = tx.Bucket(bucketDocs).Stats().KeyN
		return nil
	})
	return g, err
}

// removeIfUnused removes the generation directory genDir unless a process
// holds a lock on its bbolt file, and reports whether it did.
func removeIfUnused(genDir string) (bool, error) {
	f, err := os.Open(filepath.Join(genDir, dbFile))
	switch {
	case errors.Is(err, fs.ErrNotExist): // torn before bbolt created the file
		return true, os.RemoveAll(genDir)
	case err != nil:
		return false, err
	}
	defer f.Close()
	got, err := tryLock(f)
	if !got || err != nil {
		return false, err
	}
	// Holding the exclusive lock, nobody can open the file meanwhile.
	return true, os.RemoveAll(genDir)
}

// syncTree flushes root and every directory and file below it.
func syncTree(root string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return fsync.Path(path)
	})
}
