package medkb

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/base"
)

// mountTmpfs mounts a tmpfs of the given size (e.g. "4m") at dir, or skips
// the test where that is not permitted (not root, no CAP_SYS_ADMIN).
func mountTmpfs(t *testing.T, dir, size string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a tmpfs to fill (%v); needs root", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
}

func growTmpfs(t *testing.T, dir, size string) {
	t.Helper()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT, "size="+size); err != nil {
		t.Fatal(err)
	}
}

// fillUp ingests batches of fillBatch documents from first on until one
// fails, and returns how many succeeded and the error. A batch that does
// not return within a minute fails the test: a full disk must not hang.
func fillUp(t *testing.T, db *DB, first int) (int, error) {
	t.Helper()
	for a := first; a < first+100000; a += fillBatch {
		var docs []base.Doc
		for i := a; i < a+fillBatch; i++ {
			docs = append(docs, crashDoc(i, 0))
		}
		done := make(chan error, 1)
		go func() {
			_, err := db.Ingest(context.Background(), docs)
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				return a - first, err
			}
		case <-time.After(time.Minute):
			t.Fatalf("an ingest on a full disk hangs")
		}
	}
	t.Fatal("the disk never filled")
	return 0, nil
}

const fillBatch = 25

func docCount(t *testing.T, db *DB) int {
	t.Helper()
	s, err := db.Stats()
	if err != nil {
		t.Fatal(err)
	}
	return s.Docs
}

// TestFullDisk fills a tmpfs two ways. With the whole store on it, the
// bbolt commit usually fails: a clear error, nothing of the batch is kept,
// and the store opens clean while the disk is still full. With only the BM25 index
// on it, the commit succeeds and the index update fails: the error says
// so, a read-only open refuses a lagging index with a clear message, and a
// read-write open, once there is room, replays and checks clean.
func TestFullDisk(t *testing.T) {
	t.Run("store", func(t *testing.T) {
		mnt := filepath.Join(t.TempDir(), "disk")
		mountTmpfs(t, mnt, "2m")
		dir := filepath.Join(mnt, "kb")
		db, err := Open(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		n, err := fillUp(t, db, 0)
		if err == nil || !strings.Contains(err.Error(), "no space left on device") {
			t.Fatalf("full disk: %v", err)
		}
		t.Logf("after %d documents: %v", n, err)
		db.Close()
		// Usually bbolt fails first and the batch is rolled back; when the
		// index fails first the batch is committed and replaying it needs
		// room.
		want := n
		if strings.Contains(err.Error(), "committed sequence") {
			want += fillBatch
			growTmpfs(t, mnt, "64m")
		} else if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("the bbolt error does not wrap ENOSPC: %v", err)
		}
		db = openChecked(t, dir, nil)
		defer db.Close()
		if got := docCount(t, db); got != want {
			t.Fatalf("%d documents after the failed batch, want %d", got, want)
		}
	})
	t.Run("index", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "kb")
		db, err := Open(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Ingest(context.Background(), []base.Doc{crashDoc(0, 0)}); err != nil {
			t.Fatal(err)
		}
		db.Close()
		// Move the index onto a small tmpfs of its own.
		bm := filepath.Join(dir, "gen-000001", "bm25")
		if err := os.Rename(bm, bm+".disk"); err != nil {
			t.Fatal(err)
		}
		mountTmpfs(t, bm, "384k")
		if err := os.CopyFS(bm, os.DirFS(bm+".disk")); err != nil {
			t.Fatal(err)
		}
		db, err = Open(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		n, err := fillUp(t, db, 1)
		if err == nil || !strings.Contains(err.Error(), "no space left on device") || !strings.Contains(err.Error(), "committed sequence") {
			t.Fatalf("full index disk: %v", err)
		}
		t.Logf("after %d documents: %v", n, err)
		db.Close()
		// Scorch may still persist the batch while it closes; if not, a
		// reader is told to open the store read-write once.
		if ro, err := Open(dir, &Options{ReadOnly: true}); err == nil {
			ro.Close()
		} else if !strings.Contains(err.Error(), "behind the store") {
			t.Fatalf("read-only open of a lagging index: %v", err)
		}
		growTmpfs(t, bm, "64m")
		db = openChecked(t, dir, nil)
		defer db.Close()
		if got := docCount(t, db); got != 1+n+fillBatch {
			t.Fatalf("%d documents, want %d: the failed batch was committed", got, 1+n+fillBatch)
		}
	})
}
