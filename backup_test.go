package medkb

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/medkb/medkb/store"
)

func TestBackupPassesCheckWithSameCounts(t *testing.T) {
	dir := sampleDir(t)
	db := openChecked(t, dir, &Options{ReadOnly: true})
	want, _ := db.Stats()
	answersBefore := answers(t, db)
	db.Close()

	dest := filepath.Join(t.TempDir(), "backup")
	got, err := Backup(context.Background(), dir, dest, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Docs != want.Docs || got.Chunks != want.Chunks || got.Vectors != want.Vectors ||
		got.Triples != want.Triples || got.Entities != want.Entities || got.Seq != want.Seq {
		t.Fatalf("backup %+v, store %+v", got, want)
	}
	// The copy is a store of its own: read-only opens, same answers.
	c, err := Open(dest, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if a := answers(t, c); !slices.EqualFunc(a, answersBefore, slices.Equal) {
		t.Fatalf("backup answers differently:\n got %v\nwant %v", a, answersBefore)
	}
}

// DB.Backup is hot: it copies from a read-write DB while that DB ingests.
func TestBackupOfAWriterWhileItWrites(t *testing.T) {
	dir := sampleDir(t)
	db := openChecked(t, dir, nil)
	defer db.Close()
	var wg sync.WaitGroup
	first := make(chan struct{})
	wg.Go(func() {
		defer close(first) // also when the first batch fails
		for a := 0; a < 100; a += 10 {
			if a == 10 {
				first <- struct{}{}
			}
			var docs []Doc
			for i := a; i < a+10; i++ {
				docs = append(docs, crashDoc(i, 0))
			}
			if _, err := db.Ingest(context.Background(), docs); err != nil {
				t.Error(err)
				return
			}
		}
	})
	<-first
	dest := filepath.Join(t.TempDir(), "backup")
	got, err := db.Backup(context.Background(), dest)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	now, _ := db.Stats()
	// The copy holds the store as of some write during the ingest.
	if got.Docs < now.Docs-90 || got.Docs > now.Docs || (got.Docs-(now.Docs-100))%10 != 0 {
		t.Fatalf("backup has %d documents; the store went from %d to %d in batches of 10", got.Docs, now.Docs-100, now.Docs)
	}
	t.Logf("backup taken at %d of %d..%d documents", got.Docs, now.Docs-100, now.Docs)
}

func TestBackupRefusals(t *testing.T) {
	dir := sampleDir(t)
	dest := t.TempDir()
	if err := os.WriteFile(filepath.Join(dest, "keep.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Backup(context.Background(), dir, dest, nil); !errors.Is(err, store.ErrBackupDest) {
		t.Fatalf("backup into a non-empty directory: %v", err)
	}
	if _, err := Backup(context.Background(), filepath.Join(t.TempDir(), "none"), filepath.Join(t.TempDir(), "b"), nil); !errors.Is(err, store.ErrMissing) {
		t.Fatalf("backup of a missing store: %v", err)
	}
	// A writer in another process (here: the store package's handle,
	// which a DB of this process would go through) holds the file
	// exclusively; the backup waits its lock timeout and says so.
	w, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	opts := &Options{LockTimeout: 100 * time.Millisecond}
	if _, err := Backup(context.Background(), dir, filepath.Join(t.TempDir(), "b"), opts); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("backup beside a writer: %v, want ErrLocked", err)
	}
}

// An interrupted backup (no CURRENT yet) is not mistaken for a store.
func TestInterruptedBackupIsNoStore(t *testing.T) {
	dest := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dest, store.GenName(1)), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dest, &Options{ReadOnly: true}); !errors.Is(err, store.ErrNotStore) {
		t.Fatalf("open of a torn backup: %v", err)
	}
}
