package store

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/base"
)

func TestWriterLockExcludesWriters(t *testing.T) {
	kb := filepath.Join(t.TempDir(), "kb")
	s, err := Open(kb, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = LockWriter(kb, 50*time.Millisecond)
	holder := "pid " + strconv.Itoa(os.Getpid()) + " (" + filepath.Base(os.Args[0])
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), holder) {
		t.Fatalf("lock beside a writer: %v, want it to name %q", err, holder)
	}
	s.Close()
	l, err := LockWriter(kb, 50*time.Millisecond)
	if err != nil {
		t.Fatalf("lock after the writer closed: %v", err)
	}
	// Readers never take it.
	r, err := Open(kb, &Options{ReadOnly: true, LockTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatalf("reader beside the writer lock: %v", err)
	}
	r.Close()
	l.Release()
	l.Release()
}

func TestPublishAndPrune(t *testing.T) {
	kb := filepath.Join(t.TempDir(), "kb")
	s, err := Open(kb, nil)
	if err != nil {
		t.Fatal(err)
	}
	write(t, s, &Batch{Put: []DocWrite{docWrite("a", base.T1, "a0")}})
	s.Close()
	reader, err := Open(kb, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	l, err := LockWriter(kb, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	g2, err := CreateGeneration(kb) // what a rebuild does
	if err != nil {
		t.Fatal(err)
	}
	write(t, g2, &Batch{Put: []DocWrite{docWrite("a", base.T1, "a0")}})
	if err := g2.SetFrom(GenName(1)); err != nil {
		t.Fatal(err)
	}
	g2.Close()
	torn := filepath.Join(kb, GenName(9)) // a rebuild killed before bbolt created its file
	if err := os.Mkdir(torn, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := l.Publish(GenName(2)); err != nil {
		t.Fatal(err)
	}
	if cur, _ := Current(kb); cur != GenName(2) {
		t.Fatalf("CURRENT after Publish: %s", cur)
	}
	removed, inUse, err := l.Prune()
	if err != nil || !slices.Equal(removed, []string{GenName(9)}) || !slices.Equal(inUse, []string{GenName(1)}) {
		t.Fatalf("prune with a reader on %s: removed %v, in use %v, %v", GenName(1), removed, inUse, err)
	}
	reader.Close()
	removed, inUse, err = l.Prune()
	if err != nil || !slices.Equal(removed, []string{GenName(1)}) || len(inUse) != 0 {
		t.Fatalf("prune after the reader left: removed %v, in use %v, %v", removed, inUse, err)
	}
	if gens, _ := Generations(kb); !slices.Equal(gens, []string{GenName(2)}) {
		t.Fatalf("generations: %v", gens)
	}
}

func TestBackupCopiesTheSystemOfRecord(t *testing.T) {
	s := openTest(t)
	write(t, s, &Batch{Put: []DocWrite{docWrite("a", base.T1, "a0", "a1"), docWrite("b", base.T3, "b0")}})
	dest := filepath.Join(t.TempDir(), "copy")
	if err := s.Backup(dest); err != nil {
		t.Fatal(err)
	}
	if err := s.Backup(dest); !errors.Is(err, ErrBackupDest) {
		t.Fatalf("backup over a backup: %v", err)
	}
	c, err := Open(dest, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	want, _ := s.Meta()
	got, _ := c.Meta()
	if got != want || c.Generation() != GenName(1) {
		t.Fatalf("copy %s meta %+v, store %+v", c.Generation(), got, want)
	}
	for _, p := range c.Check() {
		t.Errorf("copy: %v", p)
	}
}

// Prune removes nothing when that could lose documents: the issue's
// scenario (CURRENT names a generation without medkb.db), a live
// generation with fewer documents than one it did not replace, and a
// generation whose file is damaged.
func TestPruneRefusesToLoseData(t *testing.T) {
	kb := filepath.Join(t.TempDir(), "kb")
	s, err := Open(kb, nil)
	if err != nil {
		t.Fatal(err)
	}
	write(t, s, &Batch{Put: []DocWrite{docWrite("a", base.T1, "a0"), docWrite("b", base.T2, "b0")}})
	s.Close()
	l, err := LockWriter(kb, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	refused := func(what string) {
		t.Helper()
		removed, _, err := l.Prune()
		if !errors.Is(err, ErrWouldLoseData) || len(removed) > 0 {
			t.Fatalf("%s: removed %v, %v", what, removed, err)
		}
		if _, err := os.Stat(filepath.Join(kb, GenName(1), dbFile)); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		t.Logf("%s: %v", what, err)
	}
	// CURRENT names a generation without medkb.db.
	if err := os.Mkdir(filepath.Join(kb, GenName(2)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := SetCurrent(kb, GenName(2)); err != nil {
		t.Fatal(err)
	}
	refused("live generation without medkb.db")
	// ... with an empty medkb.db.
	if err := os.WriteFile(filepath.Join(kb, GenName(2), dbFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	refused("live generation with an empty medkb.db")
	// ... with a valid but empty store that was not rebuilt from gen-000001.
	os.RemoveAll(filepath.Join(kb, GenName(2)))
	g, err := CreateGeneration(kb)
	if err != nil {
		t.Fatal(err)
	}
	g.Close()
	refused("live generation with fewer documents")
	// CURRENT back at the data: the empty generation goes.
	if err := SetCurrent(kb, GenName(1)); err != nil {
		t.Fatal(err)
	}
	if removed, _, err := l.Prune(); err != nil || !slices.Equal(removed, []string{GenName(2)}) {
		t.Fatalf("prune behind the right generation: removed %v, %v", removed, err)
	}
}
