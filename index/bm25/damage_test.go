package bm25

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/damage"
)

// damagedIndex builds a closed index in a temporary directory holding
// chunks 1 and 2, and returns its directory and its segment files.
func damagedIndex(t *testing.T) (string, []string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bm25")
	ix, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	apply(t, ix, 1, nil, Doc{Ord: 1, Text: "angina pectoris"}, Doc{Ord: 2, Text: "troponin rise"})
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	zaps, err := filepath.Glob(filepath.Join(dir, "store", "*.zap"))
	if err != nil || len(zaps) == 0 {
		t.Fatalf("no segment files: %v", err)
	}
	return dir, zaps
}

// A segment garbled all through makes bleve panic while it opens the
// index (Open returns ErrCorrupt instead) or fall back to the snapshot
// before it; either way Rebuild replaces the index, although a panicked
// open still holds its lock (see doc.go, Caveats).
func TestOpenGarbledSegment(t *testing.T) {
	for _, ro := range []bool{true, false} {
		dir, zaps := damagedIndex(t)
		damage.Garble(t, zaps[0], 1000, 97)
		// Or scorch gives up on the snapshot and opens the one before
		// the segment: the index as created, at sequence 0, which a
		// caller sees as behind its store.
		ix, err := Open(dir, &Options{ReadOnly: ro})
		if err == nil {
			seq, _ := ix.Seq()
			ix.Close()
			if seq != 0 {
				t.Fatalf("read-only %v: a garbled index opened at sequence %d", ro, seq)
			}
		} else if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), dir) {
			t.Errorf("read-only %v: %v, want ErrCorrupt naming %s", ro, err, dir)
		}
		ix, err = Rebuild(dir, &Options{LockTimeout: 50 * time.Millisecond}, func(*Index) error { return nil })
		if err != nil {
			t.Fatalf("read-only %v: rebuild after the panic: %v", ro, err)
		}
		ix.Close()
	}
}

// One garbled byte inside a segment passes Open; Verify finds it by the
// segment's checksum and names the file.
func TestVerifyFindsGarbledSegment(t *testing.T) {
	dir, zaps := damagedIndex(t)
	ix, err := Open(dir, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Verify(); err != nil {
		t.Fatalf("intact index: %v", err)
	}
	ix.Close()

	b, err := os.ReadFile(zaps[0])
	if err != nil {
		t.Fatal(err)
	}
	at := strings.Index(string(b), "angina") // stored in the term dictionary
	if at < 0 {
		at = len(b) / 3
	}
	damage.Garble(t, zaps[0], at, len(b))
	ix, err = Open(dir, &Options{ReadOnly: true})
	if err != nil {
		t.Skipf("this garbling already fails Open: %v", err)
	}
	defer ix.Close()
	err = ix.Verify()
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), filepath.Base(zaps[0])) {
		t.Fatalf("Verify of a garbled segment: %v, want ErrCorrupt naming %s", err, filepath.Base(zaps[0]))
	}
}

// Rebuild replaces a damaged index with what fill puts in; when fill
// fails, the damaged directory is left as it was.
func TestRebuildReplacesDamagedIndex(t *testing.T) {
	dir, zaps := damagedIndex(t)
	if err := os.Remove(zaps[0]); err != nil {
		t.Fatal(err)
	}
	// scorch fails, or falls back to the snapshot before the segment
	// (the index as created), depending on whether it pruned it yet.
	if ix, err := Open(dir, nil); err == nil {
		seq, _ := ix.Seq()
		ix.Close()
		if seq != 0 {
			t.Fatalf("an index without its segment opened at seq %d", seq)
		}
	}

	boom := errors.New("boom")
	_, err := Rebuild(dir, nil, func(ix *Index) error { return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("failed fill: %v, want boom", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "store")); err != nil {
		t.Errorf("the damaged index was not left in place: %v", err)
	}
	assertNoLeftovers(t, dir)

	ix, err := Rebuild(dir, nil, func(ix *Index) error {
		return ix.Apply(7, nil, []Doc{{Ord: 3, Text: "dyspnea"}})
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if seq, err := ix.Seq(); err != nil || seq != 7 {
		t.Errorf("rebuilt index: Seq = %d, %v; want 7", seq, err)
	}
	if got := find(t, ix, "dyspnea", 5, nil); !slices.Equal(got, []uint64{3}) {
		t.Errorf("rebuilt index finds %v, want [3]", got)
	}
	if err := ix.Verify(); err != nil {
		t.Error(err)
	}
	assertNoLeftovers(t, dir)
}

// Rebuild also makes an index where there is none, and a read-write Open
// removes what a crashed Rebuild left beside the index; a read-only one
// leaves it.
func TestRebuildLeftovers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bm25")
	ix, err := Rebuild(dir, nil, func(*Index) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	ix.Close()
	for _, s := range []string{rebuildingSuffix, replacedSuffix} {
		if err := os.MkdirAll(filepath.Join(dir+s, "store"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	ro, err := Open(dir, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ro.Close()
	if _, err := os.Stat(dir + rebuildingSuffix); err != nil {
		t.Errorf("a read-only open removed %s: %v", dir+rebuildingSuffix, err)
	}
	rw, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	rw.Close()
	assertNoLeftovers(t, dir)
}

func assertNoLeftovers(t *testing.T, dir string) {
	t.Helper()
	for _, s := range []string{creatingSuffix, rebuildingSuffix, replacedSuffix} {
		if _, err := os.Stat(dir + s); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind: %v", dir+s, err)
		}
	}
}

// Verify beside the merger: segments replaced and their files deleted
// while Verify reads are not damage; a file the current snapshot still
// names, deleted, is. (A false report of the first kind failed
// TestFullDisk once in CI; the race is rare, and this test did not catch
// it without the fix in 100k checks: it guards the second half, that
// looking again does not hide real damage.)
func TestVerifyBesideMerges(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bm25")
	ix, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for seq := uint64(1); seq <= 100; seq++ {
			if err := ix.Apply(seq, nil, []Doc{{Ord: seq, Text: "troponin rise after angina, batch " + strings.Repeat("x", int(seq%7))}}); err != nil {
				t.Errorf("Apply(%d): %v", seq, err)
				return
			}
		}
	}()
	checks := 0
	for running := true; running; checks++ {
		select {
		case <-done:
			running = false
		default:
		}
		if err := ix.Verify(); err != nil {
			t.Fatalf("Verify beside merges, check %d: %v", checks, err)
		}
	}
	t.Logf("%d checks beside 100 batches", checks)

	paths, err := ix.segmentPaths()
	if err != nil || len(paths) == 0 {
		t.Fatalf("segment files: %v %v", paths, err)
	}
	if err := os.Remove(paths[0]); err != nil {
		t.Fatal(err)
	}
	if err := ix.Verify(); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), filepath.Base(paths[0])) {
		t.Fatalf("Verify with %s deleted: %v, want it named as missing", filepath.Base(paths[0]), err)
	}
}
