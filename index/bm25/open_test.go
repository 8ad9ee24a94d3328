package bm25

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/medkb/medkb/store"
)

// TestLocks pins down scorch's file locking (an flock on root.bolt, which
// also separates two opens inside one process): a writer excludes
// everyone, readers share but exclude a writer.
func TestLocks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bm25")
	short := &Options{LockTimeout: 50 * time.Millisecond}
	shortRO := &Options{ReadOnly: true, LockTimeout: 50 * time.Millisecond}

	w, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	apply(t, w, 1, nil, Doc{Ord: 1, Text: "angina"})
	if _, err := Open(dir, shortRO); !errors.Is(err, store.ErrLocked) {
		t.Errorf("read-only open beside a writer: %v, want ErrLocked", err)
	}
	if _, err := Open(dir, short); !errors.Is(err, store.ErrLocked) {
		t.Errorf("second writer: %v, want ErrLocked", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	r1, err := Open(dir, shortRO)
	if err != nil {
		t.Fatalf("read-only open after the writer closed: %v", err)
	}
	r2, err := Open(dir, shortRO)
	if err != nil {
		t.Fatalf("second reader: %v", err)
	}
	if _, err := Open(dir, short); !errors.Is(err, store.ErrLocked) {
		t.Errorf("writer beside readers: %v, want ErrLocked", err)
	}
	for _, r := range []*Index{r1, r2} {
		if got := find(t, r, "angina", 10, nil); !slices.Equal(got, []uint64{1}) {
			t.Errorf("reader found %v, want [1]", got)
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
	w, err = Open(dir, short)
	if err != nil {
		t.Fatalf("writer after readers closed: %v", err)
	}
	w.Close()
}

func TestOpenMissingReadOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bm25")
	if _, err := Open(dir, &Options{ReadOnly: true}); !errors.Is(err, ErrNotFound) {
		t.Errorf("read-only open of nothing: %v, want ErrNotFound", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("read-only open created %s", dir)
	}
}

func TestCreate(t *testing.T) {
	parent := t.TempDir()

	// An empty directory (made by the caller) and the leftovers of a
	// creation that crashed are fine.
	dir := filepath.Join(parent, "bm25")
	if err := os.MkdirAll(filepath.Join(dir+".creating", "store"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	apply(t, ix, 1, nil, Doc{Ord: 3, Text: "x"})
	ix.Close()
	if _, err := os.Stat(dir + ".creating"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary directory left behind: %v", err)
	}

	// A directory holding something else is not taken over.
	other := filepath.Join(parent, "other")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(other, nil); err == nil {
		t.Error("Open took over a non-empty directory")
	}
	if b, err := os.ReadFile(filepath.Join(other, "notes.txt")); err != nil || string(b) != "mine" {
		t.Errorf("foreign file damaged: %q, %v", b, err)
	}
}

func TestIncompatibleSchema(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bm25")
	ix, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.bleve.SetInternal([]byte(schemaKey), []byte("0")); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if _, err := Open(dir, nil); !errors.Is(err, ErrIncompatible) {
		t.Errorf("open with old schema: %v, want ErrIncompatible", err)
	}
}

func TestCompact(t *testing.T) {
	ix := openTemp(t)
	var want []uint64
	for seq := uint64(1); seq <= 25; seq++ {
		apply(t, ix, seq, []uint64{seq - 1}, Doc{Ord: seq, Text: "dyspnea on exertion"}, Doc{Ord: 100 + seq, Text: "orthopnea"})
		want = append(want, 100+seq)
	}
	want = append([]uint64{25}, want...)
	slices.Sort(want)
	if err := ix.Compact(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := segments(ix); n != 1 {
		t.Errorf("after compact: %v segments, want 1", n)
	}
	checkConsistent(t, ix, want...)
	if got := find(t, ix, "dyspnea", 10, nil); !slices.Equal(got, []uint64{25}) {
		t.Errorf("after compact: %v, want [25]", got)
	}
	if seq, err := ix.Seq(); err != nil || seq != 25 {
		t.Errorf("after compact: Seq = %d, %v; want 25", seq, err)
	}
}

func TestOrdEncoding(t *testing.T) {
	for _, ord := range []uint64{0, 1, 15, 16, 1 << 32, 1<<64 - 1} {
		id := encodeOrd(ord)
		got, err := decodeOrd(id)
		if err != nil || got != ord || len(id) != idLen {
			t.Errorf("ord %d -> %q -> %d, %v", ord, id, got, err)
		}
	}
	if encodeOrd(9) >= encodeOrd(10) || encodeOrd(255) >= encodeOrd(256) {
		t.Error("ids do not sort like ordinals")
	}
	for _, bad := range []string{"", "12", "000000000000000g", "00000000000000001"} {
		if _, err := decodeOrd(bad); !errors.Is(err, ErrCorrupt) {
			t.Errorf("decodeOrd(%q): %v, want ErrCorrupt", bad, err)
		}
	}
}
