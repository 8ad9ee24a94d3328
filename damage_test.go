package medkb

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/damage"
	"github.com/medkb/medkb/store"
)

// oneSegmentDir builds a closed store holding the sample corpus in one
// write, so that its BM25 index is a single segment.
func oneSegmentDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Ingest(context.Background(), sampleDocs(t)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// copyStore copies the closed store in dir to a new directory.
func copyStore(t *testing.T, dir string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "kb")
	if err := os.CopyFS(dst, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// indexFiles returns the BM25 directory of the store in dir and its
// segment files.
func indexFiles(t *testing.T, dir string) (string, []string) {
	t.Helper()
	bm := filepath.Join(dir, "gen-000001", "bm25")
	zaps, err := filepath.Glob(filepath.Join(bm, "store", "*.zap"))
	if err != nil || len(zaps) == 0 {
		t.Fatalf("no segments in %s: %v", bm, err)
	}
	return bm, zaps
}

// readsWork opens dir read-only and checks that stats, show and export
// answer from the store: want documents, the first of them shown.
func readsWork(t *testing.T, dir string, want int) *DB {
	t.Helper()
	db, err := Open(dir, &Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open: %v", err)
	}
	s, err := db.Stats()
	if err != nil || s.Docs != want {
		t.Fatalf("stats: %+v, %v; want %d documents", s, err, want)
	}
	n := 0
	if err := db.Export(func(*Doc) error { n++; return nil }); err != nil || n != want {
		t.Fatalf("export: %d documents, %v; want %d", n, err, want)
	}
	if v, err := db.Show([]string{sampleDocs(t)[0].ID}); err != nil || len(v) != 1 || len(v[0].Chunks) == 0 {
		t.Fatalf("show: %v", err)
	}
	return db
}

const damageQuery = `RETRIEVE "chest pain" USING bm25(k=5) LIMIT 5`

// TestDamagedIndex damages the BM25 index of a one-segment store in each
// way the issue names. Read-only, stats, show and export work and a query
// fails with ErrIndexDamaged naming the file, the cause and medkb check; a
// read-write open (or, for damage only the checksums reveal, Check and
// RepairIndex) rebuilds the index from the store, and queries answer again.
func TestDamagedIndex(t *testing.T) {
	src := oneSegmentDir(t)
	docs := len(sampleDocs(t))
	cases := []struct {
		name   string
		damage func(t *testing.T, bm string, zaps []string)
		cause  string // in the query's error
		opens  bool   // the damage passes Open; only Check finds it
	}{
		// scorch may fall back to the snapshot before the segment: the
		// empty index at write 0, behind the store (TestIndexBehindTheStore)
		{"segment deleted", func(t *testing.T, bm string, zaps []string) { rm(t, zaps[0]) }, "", false},
		{"index directory missing", func(t *testing.T, bm string, zaps []string) { rm(t, bm) }, "not found", false},
		{"root.bolt truncated", func(t *testing.T, bm string, zaps []string) {
			truncate(t, filepath.Join(bm, "store", "root.bolt"), 100)
		}, "invalid database", false},
		{"root.bolt deleted", func(t *testing.T, bm string, zaps []string) { rm(t, filepath.Join(bm, "store", "root.bolt")) }, "root.bolt", false},
		{"index_meta.json deleted", func(t *testing.T, bm string, zaps []string) { rm(t, filepath.Join(bm, "index_meta.json")) }, "not found", false},
		{"index_meta.json truncated", func(t *testing.T, bm string, zaps []string) { truncate(t, filepath.Join(bm, "index_meta.json"), 10) }, "metadata corrupt", false},
		{"segment garbled throughout", func(t *testing.T, bm string, zaps []string) { damage.Garble(t, zaps[0], 1000, 97) }, "corrupt", false},
		{"segment garbled in one byte", func(t *testing.T, bm string, zaps []string) { damage.Garble(t, zaps[0], 5000, 1<<30) }, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := copyStore(t, src)
			bm, zaps := indexFiles(t, dir)
			c.damage(t, bm, zaps)

			ro := readsWork(t, dir, docs)
			_, err := ro.Query(context.Background(), damageQuery)
			unusable := errors.Is(err, ErrIndexDamaged) || (c.cause == "" && errors.Is(err, ErrIndexBehind))
			switch {
			case c.opens && err != nil:
				t.Errorf("query: %v", err)
			case !c.opens && (!unusable || !strings.Contains(err.Error(), c.cause) ||
				!strings.Contains(err.Error(), "medkb check --db "+dir) || !strings.Contains(err.Error(), bm)):
				t.Errorf("query over the damaged index: %v; want ErrIndexDamaged naming %s, %q and medkb check", err, bm, c.cause)
			}
			problems, err := ro.Check()
			if err != nil || len(problems) == 0 || !errors.Is(problems[0], ErrIndexDamaged) && !errors.Is(problems[0], ErrIndexBehind) {
				t.Errorf("read-only check: %v, %v; want an index problem", problems, err)
			}
			ro.Close()

			db, err := Open(dir, nil)
			if err != nil {
				t.Fatalf("read-write open: %v", err)
			}
			defer db.Close()
			if c.opens {
				if len(db.Repairs()) != 0 {
					t.Errorf("open repaired %v, want nothing", db.Repairs())
				}
				note, err := db.RepairIndex()
				if err != nil || !strings.Contains(note, "rebuilt") {
					t.Fatalf("RepairIndex: %q, %v", note, err)
				}
			} else if r := db.Repairs(); len(r) != 1 || !strings.Contains(r[0], "BM25 index of gen-000001") {
				t.Errorf("repairs: %q, want one for the BM25 index", r)
			}
			if err := db.verify(); err != nil {
				t.Fatal(err)
			}
			if res, err := db.Query(context.Background(), damageQuery); err != nil || len(res.Items) == 0 {
				t.Fatalf("query after the repair: %v", err)
			}
			for _, s := range []string{".rebuilding", ".replaced", ".creating"} {
				if _, err := os.Stat(bm + s); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s left behind", bm+s)
				}
			}
		})
	}
}

func rm(t *testing.T, path string) {
	t.Helper()
	if err := os.RemoveAll(path); err != nil {
		t.Fatal(err)
	}
}

func truncate(t *testing.T, path string, size int64) {
	t.Helper()
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
}

// An index behind the store (a writer committed and died, or its index
// update failed, or scorch fell back past a lost newest segment) does not
// stop a reader: stats, show and export answer from the store, and a query
// says how many writes are missing and how to index them. A read-write
// open replays them.
func TestIndexBehindTheStore(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	docs := sampleDocs(t)
	if _, err := db.Ingest(ctx, docs[:10]); err != nil {
		t.Fatal(err)
	}
	puts, err := db.preparer().prepare(ctx, convert(docs[10:20], toBaseDoc), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.cur.st.Write(&store.Batch{Put: puts, Embedder: db.emb.Name(), Dim: db.emb.Dim()}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	ro := readsWork(t, dir, 20)
	_, err = ro.Query(ctx, damageQuery)
	if !errors.Is(err, ErrIndexBehind) || !strings.Contains(err.Error(), "reflects write 1, the store is at 2") ||
		!strings.Contains(err.Error(), "1 write(s) not indexed") || !strings.Contains(err.Error(), "medkb check --db "+dir) {
		t.Errorf("query over a lagging index: %v", err)
	}
	if _, err := ro.Explain(ctx, damageQuery); err != nil {
		t.Errorf("explain needs no index: %v", err)
	}
	ro.Close()

	db, err = Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if r := db.Repairs(); len(r) != 1 || !strings.Contains(r[0], "replayed writes 2 to 2") {
		t.Errorf("repairs: %q", r)
	}
	if err := db.verify(); err != nil {
		t.Fatal(err)
	}
}

// The newest of two segments deleted: scorch silently loads the snapshot
// before it, an index behind the store, which a read-write open replays.
func TestNewestSegmentDeleted(t *testing.T) {
	dir := sampleDir(t)
	_, zaps := indexFiles(t, dir)
	if len(zaps) < 2 {
		t.Skipf("the sample store has %d segment(s)", len(zaps))
	}
	rm(t, zaps[len(zaps)-1]) // names are epochs in hex: the last is the newest
	ro := readsWork(t, dir, len(sampleDocs(t)))
	_, err := ro.Query(context.Background(), damageQuery)
	if !errors.Is(err, ErrIndexBehind) && !errors.Is(err, ErrIndexDamaged) {
		t.Errorf("query: %v, want ErrIndexBehind or ErrIndexDamaged", err)
	}
	ro.Close()
	db := openChecked(t, dir, nil)
	defer db.Close()
	if len(db.Repairs()) != 1 {
		t.Errorf("repairs: %q", db.Repairs())
	}
}
