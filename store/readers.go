package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// readersDir holds a record of every open reader of the store.
const readersDir = "readers"

// readerMark is an open reader's record: a file kb/readers/r-* holding
// "PID\tPROGRAM\tGENERATION", on which the reader holds an exclusive
// flock for as long as it has the generation open. The flock, not the
// file, says the reader is alive: a killed reader's flock goes with it,
// and the next writer that looks removes its file.
type readerMark struct {
	f    *os.File
	path string
}

// markReader records that this process opened generation gen of dir
// read-only, so that a writer that times out waiting for it can name it.
// It is best effort and returns nil when it cannot write in dir (a store
// on a read-only mount, another user's): such a reader goes unnamed. The
// record is written under a temporary name and locked before it is
// renamed into place, so that a record a waiter finds unlocked is a dead
// reader's.
func markReader(dir, gen string) *readerMark {
	rd := filepath.Join(dir, readersDir)
	if err := os.Mkdir(rd, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil
	}
	f, err := os.CreateTemp(rd, ".new-*")
	if err != nil {
		return nil
	}
	path := filepath.Join(rd, "r-"+strings.TrimPrefix(filepath.Base(f.Name()), ".new-"))
	got, err := tryLock(f)
	if err == nil && got {
		_, err = f.WriteString(holderRecord(gen))
	}
	if err != nil || !got || os.Rename(f.Name(), path) != nil {
		os.Remove(f.Name()) // a waiter took it for a dead reader's, or a write failed
		f.Close()
		return nil
	}
	return &readerMark{f: f, path: path}
}

// release removes the record; closing the file drops its flock.
func (m *readerMark) release() {
	if m == nil {
		return
	}
	os.Remove(m.path)
	m.f.Close()
}

// readersOf names the live readers of generation gen of dir ("pid N
// (PROGRAM)", once each) and removes the records of dead ones, whose
// flock nobody holds.
func readersOf(dir, gen string) []string {
	rd := filepath.Join(dir, readersDir)
	ents, _ := os.ReadDir(rd)
	var out []string
	for _, e := range ents {
		path := filepath.Join(rd, e.Name())
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		got, err := tryLock(f)
		switch {
		case err != nil:
		case got:
			os.Remove(path) // a crashed reader's, or one being made, whose maker then goes unrecorded
		default:
			pid, program, rest, ok := readHolder(f)
			if name := describeHolder(pid, program); ok && rest == gen && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
		f.Close()
	}
	return out
}

// holderRecord is what a lock's holder writes about itself: its pid and
// program (programName), then fields (tab-separated), on one line.
func holderRecord(fields ...string) string {
	return strings.Join(append([]string{strconv.Itoa(os.Getpid()), programName()}, fields...), "\t") + "\n"
}

// readHolder reads the record holderRecord wrote in f: ok is false when
// it holds none (a lock file written by no one yet).
func readHolder(f *os.File) (pid, program, rest string, ok bool) {
	b := make([]byte, 512)
	n, _ := f.ReadAt(b, 0)
	line, _, _ := strings.Cut(string(b[:n]), "\n")
	pid, after, _ := strings.Cut(strings.TrimSpace(line), "\t")
	program, rest, _ = strings.Cut(after, "\t")
	_, err := strconv.Atoi(pid)
	return pid, program, rest, err == nil
}

// describeHolder names a lock's holder as "pid N (PROGRAM)".
func describeHolder(pid, program string) string {
	if program == "" {
		return "pid " + pid
	}
	return "pid " + pid + " (" + program + ")"
}
