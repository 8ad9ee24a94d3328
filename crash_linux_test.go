package medkb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/medkb/medkb/index/bm25"
	"github.com/medkb/medkb/internal/damage"
)

// fillUp ingests batches of fillBatch new documents from first on until
// one fails, or (stopAtIndexErr) until one commits with IndexErr, and
// returns how many documents were acknowledged (committed, whatever
// happened to the index after), the last IndexErr seen and the error.
func fillUp(t *testing.T, db *DB, first int, stopAtIndexErr bool) (acked int, indexErr, err error) {
	t.Helper()
	for a := first; a < first+100000; a += fillBatch {
		res, err := ingestBatch(t, db, a)
		if err != nil {
			return a - first, indexErr, err
		}
		if res.IndexErr != nil {
			indexErr = res.IndexErr
			if stopAtIndexErr {
				return a + fillBatch - first, indexErr, nil
			}
		}
	}
	t.Fatal("the disk never filled")
	return 0, nil, nil
}

// ingestBatch ingests documents first..first+fillBatch-1. A batch that
// does not return within a minute fails the test: a full disk must not
// hang.
func ingestBatch(t *testing.T, db *DB, first int) (*IngestResult, error) {
	t.Helper()
	var docs []Doc
	for i := first; i < first+fillBatch; i++ {
		docs = append(docs, crashDoc(i, 0))
	}
	type result struct {
		res *IngestResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := db.Ingest(context.Background(), docs)
		done <- result{res, err}
	}()
	select {
	case r := <-done:
		return r.res, r.err
	case <-time.After(time.Minute):
		t.Fatalf("an ingest on a full disk hangs")
	}
	return nil, nil
}

const fillBatch = 25

// fullDiskTrials is how many sizes of tmpfs TestFullDisk fills: each
// fills at another point of a write. -short fills the first three.
const fullDiskTrials = 6

// TestFullDisk fills a tmpfs holding the whole store, once per size, so
// that the disk fills at different points of a write: in bbolt's commit
// (the ingest fails and leaves nothing) or in the BM25 update after it
// (the ingest succeeds, with IndexErr). After each: every acknowledged
// batch is stored and the failed one is not; while the disk is still
// full, read-only stats, show and export answer, a query answers or says
// the index is behind, and a read-write open works; once there is room, a
// read-write open catches up and checks clean.
func TestFullDisk(t *testing.T) {
	for trial := range rounds(fullDiskTrials, 3) {
		size := fmt.Sprintf("%dk", 1536+trial*320)
		t.Run(size, func(t *testing.T) {
			mnt := filepath.Join(t.TempDir(), "disk")
			damage.Tmpfs(t, mnt, size)
			dir := filepath.Join(mnt, "kb")
			db, err := Open(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			acked, indexErr, err := fillUp(t, db, 0, false)
			db.Close()
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("full disk: %v, want ENOSPC", err)
			}
			if indexErr != nil && !errors.Is(indexErr, ErrIndexBehind) {
				t.Fatalf("index failure after a commit: %v, want ErrIndexBehind", indexErr)
			}
			t.Logf("%d documents acknowledged; the index failed after a commit: %v; then: %v", acked, indexErr != nil, err)
			failed := []string{crashID(acked), crashID(acked + fillBatch - 1)}

			// Still full: reads work, read-only and read-write.
			ro, err := Open(dir, &Options{ReadOnly: true})
			if err != nil {
				t.Fatalf("read-only open of a full disk: %v", err)
			}
			if got := docCount(t, ro); got != acked {
				t.Fatalf("%d documents, want the %d acknowledged", got, acked)
			}
			n := 0
			if err := ro.Export(func(*Doc) error { n++; return nil }); err != nil || n != acked {
				t.Fatalf("export: %d documents, %v", n, err)
			}
			if _, err := ro.Show([]string{crashID(acked - 1)}); err != nil {
				t.Fatalf("show the last acknowledged document: %v", err)
			}
			for _, id := range failed {
				if _, err := ro.Show([]string{id}); !errors.Is(err, ErrNotFound) {
					t.Fatalf("%s of the failed batch: %v, want ErrNotFound", id, err)
				}
			}
			q := fmt.Sprintf(`RETRIEVE "troponin" USING bm25(k=1) WHERE doc = %q`, crashID(acked-1))
			if res, err := ro.Query(context.Background(), q); err != nil && !errors.Is(err, ErrIndexBehind) || err == nil && len(res.Items) == 0 {
				t.Fatalf("query on a full disk: %v", err)
			}
			ro.Close()
			rw, err := Open(dir, nil)
			if err != nil {
				t.Fatalf("read-write open of a full disk: %v", err)
			}
			if got := docCount(t, rw); got != acked {
				t.Fatalf("read-write: %d documents, want %d", got, acked)
			}
			rw.Close()

			damage.GrowTmpfs(t, mnt, "64m")
			db = openChecked(t, dir, nil)
			defer db.Close()
			if res, err := db.Query(context.Background(), q); err != nil || len(res.Items) == 0 {
				t.Fatalf("acknowledged %s is not searchable: %v", crashID(acked-1), err)
			}
		})
	}
}

// TestFullIndexDisk puts only the BM25 index on a small tmpfs, so that
// commits succeed and the index update after them fails: Ingest succeeds
// with IndexErr (ErrIndexBehind, naming ENOSPC), queries say the index is
// behind while stats, show and export answer, later writes commit too,
// and the first write after space is freed catches the index up in
// process, without a reopen.
func TestFullIndexDisk(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Ingest(context.Background(), []Doc{crashDoc(0, 0)}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// Move the index onto a small tmpfs of its own.
	bm := filepath.Join(dir, "gen-000001", "bm25")
	if err := os.Rename(bm, bm+".disk"); err != nil {
		t.Fatal(err)
	}
	damage.Tmpfs(t, bm, "384k")
	if err := os.CopyFS(bm, os.DirFS(bm+".disk")); err != nil {
		t.Fatal(err)
	}
	db, err = Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Queries run meanwhile: the failed index is closed only after them.
	// One that overlaps the failing write may meet a segment bleve has
	// closed under it (see doc.go, Caveats): ErrCorrupt, not a panic.
	stop, queried := make(chan struct{}), make(chan error, 1)
	if raceEnabled {
		// Under -race the queries do not overlap the failing writes:
		// bleve itself races there (a failed batch closes segments that a
		// search may still read), which the detector reports as a failure.
		queried <- nil
	} else {
		go func() {
			n := 0
			for {
				select {
				case <-stop:
					queried <- nil
					return
				default:
				}
				_, err := db.Query(context.Background(), `RETRIEVE "troponin chest pain" LIMIT 3`)
				if err != nil && !errors.Is(err, ErrIndexBehind) && !(errors.Is(err, bm25.ErrCorrupt) && strings.Contains(err.Error(), "bleve panicked")) {
					queried <- fmt.Errorf("query %d while the index fails: %w", n, err)
					return
				}
				n++
			}
		}()
	}
	n, indexErr, err := fillUp(t, db, 1, true)
	close(stop)
	if qerr := <-queried; qerr != nil {
		t.Fatal(qerr)
	}
	if err != nil || !errors.Is(indexErr, ErrIndexBehind) || !strings.Contains(indexErr.Error(), "no space left on device") {
		t.Fatalf("full index disk: %v, %v; want success with IndexErr", err, indexErr)
	}
	t.Logf("after %d documents: %v", n, indexErr)
	total := 1 + n
	q := fmt.Sprintf(`RETRIEVE "troponin" USING bm25(k=1) WHERE doc = %q`, crashID(total-1))
	if _, err := db.Query(context.Background(), q); !errors.Is(err, ErrIndexBehind) {
		t.Fatalf("query while the index is behind: %v", err)
	}
	if got := docCount(t, db); got != total {
		t.Fatalf("%d documents, want %d", got, total)
	}
	// The next write commits; its index update (a replay of both writes)
	// fails again unless reopening the index freed the space of the
	// segments the failed writes left.
	res, err := ingestBatch(t, db, total)
	if err != nil || res.IndexErr != nil && !errors.Is(res.IndexErr, ErrIndexBehind) {
		t.Fatalf("second write on a full index disk: %v, %+v", err, res)
	}
	t.Logf("the next write, still on the full disk: %v", res.IndexErr)
	total += fillBatch
	damage.GrowTmpfs(t, bm, "64m")
	res, err = ingestBatch(t, db, total)
	if err != nil || res.IndexErr != nil {
		t.Fatalf("the write after space was freed: %v, %+v; want the index caught up", err, res)
	}
	if err := db.verify(); err != nil {
		t.Fatal(err)
	}
	if res, err := db.Query(context.Background(), q); err != nil || len(res.Items) == 0 {
		t.Fatalf("a document of a batch whose index update failed is not searchable: %v", err)
	}
}
