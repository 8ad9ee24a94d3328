package medkb

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/store"
)

// fastRebuild keeps the tests from waiting the default grace period.
var fastRebuild = &RebuildOptions{Grace: 10 * time.Millisecond}

// sampleDir builds a closed store holding the sample corpus and graph,
// with a few documents replaced so that it has dead vector slots.
func sampleDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := LoadSample(ctx, db); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Ingest(ctx, sampleDocs(t)[:5]); err != nil {
		t.Fatal(err)
	}
	return dir
}

// openChecked opens dir read-write and fails the test unless it is
// consistent.
func openChecked(t testing.TB, dir string, opts *Options) *DB {
	t.Helper()
	db, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.verify(); err != nil {
		db.Close()
		t.Fatal(err)
	}
	return db
}

var rebuildQueries = []string{
	`RETRIEVE "chest pain, troponin 2.3 ng/mL" FUSE rrf EXPAND metapath "Disease -has_symptom-> Symptom" PACK budget 512 kmin 1`,
	`RETRIEVE "penicillin allergy" USING bm25(k=5) LIMIT 5`,
	`RETRIEVE "renal function creatinine" USING vector(k=5) LIMIT 5`,
}

// answers runs rebuildQueries and returns the item ids of each.
func answers(t testing.TB, db *DB) [][]string {
	t.Helper()
	var out [][]string
	for _, q := range rebuildQueries {
		res, err := db.Query(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, it := range res.Items {
			ids = append(ids, it.ID)
		}
		out = append(out, ids)
	}
	return out
}

func TestRebuildKeepsContentAndCompacts(t *testing.T) {
	dir := sampleDir(t)
	db := openChecked(t, dir, &Options{ReadOnly: true})
	before, _ := db.Stats()
	want := answers(t, db)
	db.Close()

	res, err := Rebuild(context.Background(), dir, fastRebuild)
	if err != nil {
		t.Fatal(err)
	}
	if res.From != store.GenName(1) || res.To != store.GenName(2) || !slices.Equal(res.Removed, []string{res.From}) || len(res.InUse) != 0 {
		t.Fatalf("rebuild result %+v", res)
	}
	if res.Docs != before.Docs || res.Chunks != before.Chunks || res.Triples != before.Triples || res.Entities != before.Entities {
		t.Fatalf("rebuild wrote %+v, the store had %+v", res, before)
	}
	if gens, _ := store.Generations(dir); !slices.Equal(gens, []string{res.To}) {
		t.Fatalf("generations after rebuild: %v", gens)
	}
	db = openChecked(t, dir, nil)
	defer db.Close()
	after, _ := db.Stats()
	if after.Generation != res.To || after.Docs != before.Docs || after.Chunks != before.Chunks || after.Triples != before.Triples {
		t.Fatalf("after rebuild %+v, before %+v", after, before)
	}
	if got := answers(t, db); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("answers changed:\n got %v\nwant %v", got, want)
	}
	// The replaced documents' dead slots are gone: ordinals are dense again.
	if m, _ := db.cur.st.Meta(); m.NextOrd != uint64(m.Chunks) {
		t.Fatalf("next ordinal %d for %d chunks: dead slots were copied", m.NextOrd, m.Chunks)
	}
}

// Readers keep answering during a rebuild, from the old generation and
// then from the new one; one that stays idle keeps the old generation
// alive until it moves on.
func TestRebuildWhileQuerying(t *testing.T) {
	dir := sampleDir(t)
	idle, err := Open(dir, &Options{ReadOnly: true}) // a REPL nobody types into
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	busy, err := Open(dir, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	want, _ := busy.Stats()

	stop := queryWhile(t, busy)
	res, err := Rebuild(context.Background(), dir, &RebuildOptions{Grace: 200 * time.Millisecond})
	stop()
	if err != nil {
		t.Fatal(err)
	}
	got, _ := busy.Stats()
	if got.Generation != res.To || got.Docs != want.Docs || got.Chunks != want.Chunks {
		t.Fatalf("busy reader after rebuild: %+v, before %+v", got, want)
	}
	if !slices.Equal(res.InUse, []string{res.From}) || len(res.Removed) != 0 {
		t.Fatalf("the idle reader should keep %s: removed %v, in use %v", res.From, res.Removed, res.InUse)
	}
	// The idle reader moves at its next query and lets the old one go.
	if s, err := idle.Stats(); err != nil || s.Generation != res.To {
		t.Fatalf("idle reader after its next call: %v %+v", err, s)
	}
	res2, err := Rebuild(context.Background(), dir, fastRebuild)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res2.Removed, []string{res.From}) || !slices.Equal(res2.InUse, []string{res.To}) {
		t.Fatalf("second rebuild removed %v, kept %v", res2.Removed, res2.InUse)
	}
}

// queryWhile runs queries on db in two goroutines, failing the test for
// each that fails, until the returned stop is called.
func queryWhile(t *testing.T, db *DB) (stop func()) {
	done := make(chan struct{})
	var queries atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				queries.Add(1)
				if _, err := db.Query(context.Background(), rebuildQueries[0]); err != nil {
					t.Errorf("query during rebuild: %v", err)
				}
			}
		})
	}
	return func() {
		close(done)
		wg.Wait()
		t.Logf("%d queries during the rebuild", queries.Load())
	}
}

// The scenario: with a REPL holding the store open, rebuild
// completes, and an ingest returns within its lock timeout.
func TestRebuildAndIngestBesideAREPL(t *testing.T) {
	dir := sampleDir(t)
	repl, err := Open(dir, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer repl.Close()
	if _, err := repl.Query(context.Background(), rebuildQueries[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := Rebuild(context.Background(), dir, fastRebuild); err != nil {
		t.Fatal(err)
	}
	const timeout = 300 * time.Millisecond
	start := time.Now()
	w, err := Open(dir, &Options{LockTimeout: timeout})
	if err == nil {
		_, err = w.Ingest(context.Background(), []Doc{crashDoc(1, 0)})
		w.Close()
	}
	if err != nil && !errors.Is(err, store.ErrLocked) {
		t.Fatalf("ingest beside a REPL: %v", err)
	}
	if took := time.Since(start); took > timeout+5*time.Second {
		t.Fatalf("ingest took %s with a lock timeout of %s", took, timeout)
	}
	if _, err := repl.Query(context.Background(), rebuildQueries[1]); err != nil {
		t.Fatalf("REPL after rebuild and ingest: %v", err)
	}
}

// A writer in another process (here: the store package's handle; a DB of
// this process would be rebuilt through, see TestPackageCallsBesideOpenWriter)
// makes a rebuild wait its lock timeout and say so.
func TestRebuildWaitsForWriterThenFails(t *testing.T) {
	dir := sampleDir(t)
	w, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	_, err = Rebuild(context.Background(), dir, &RebuildOptions{LockTimeout: 100 * time.Millisecond})
	if !errors.Is(err, store.ErrLocked) {
		t.Fatalf("rebuild beside a writer: %v, want ErrLocked", err)
	}
}

// A cancelled rebuild leaves the live generation as it was and removes
// what it wrote; a hard-killed one leaves a directory the next removes.
func TestRebuildInterrupted(t *testing.T) {
	dir := sampleDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	_, err := Rebuild(ctx, dir, &RebuildOptions{Progress: func(done, total int) { cancel() }})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled rebuild: %v", err)
	}
	if gens, _ := store.Generations(dir); !slices.Equal(gens, []string{store.GenName(1)}) {
		t.Fatalf("generations after a cancelled rebuild: %v", gens)
	}
	// A rebuild killed mid-way leaves a generation newer than CURRENT.
	torn := filepath.Join(dir, store.GenName(7))
	if err := os.MkdirAll(filepath.Join(torn, "bm25"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(torn, "medkb.db"), []byte("torn"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Rebuild(context.Background(), dir, fastRebuild)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(res.Removed, store.GenName(7)) {
		t.Fatalf("leftover not removed: %+v", res)
	}
	if gens, _ := store.Generations(dir); !slices.Equal(gens, []string{res.To}) {
		t.Fatalf("generations: %v", gens)
	}
	openChecked(t, dir, nil).Close()
}

// Killing a rebuild with SIGKILL at random moments never harms the live
// generation, and the next rebuild cleans up. The first child runs to the
// end, to time a rebuild; the next ones are killed within that time.
func TestRebuildKilled(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var docs []Doc
	for i := 0; i < 300; i++ {
		docs = append(docs, crashDoc(i, 0))
	}
	if _, err := db.Ingest(context.Background(), docs); err != nil {
		t.Fatal(err)
	}
	db.Close()
	rng := crashSeed(t)
	var took time.Duration
	for k := range rounds(4, 2) {
		c := startChild(t, envChild+"=rebuild", envDir+"="+dir)
		var lines []string
		see := func(s string) { lines = append(lines, s) }
		c.waitFor(t, "READY", see)
		start := time.Now()
		if k == 0 {
			if !c.waitFor(t, "DONE", see) {
				t.Fatalf("rebuild child: %v", lines)
			}
			took = time.Since(start)
			t.Logf("a rebuild takes %s", took)
		} else {
			time.Sleep(time.Duration(rng.Int64N(int64(took))))
		}
		c.kill(see)
		cur, _ := store.Current(dir)
		gens, _ := store.Generations(dir)
		t.Logf("child %d: CURRENT %s, generations %v, child said %v", k+1, cur, gens, lines)
		db := openChecked(t, dir, nil)
		s, _ := db.Stats()
		db.Close()
		if s.Docs != len(docs) {
			t.Fatalf("after a killed rebuild: %d documents, want %d", s.Docs, len(docs))
		}
	}
	res, err := Rebuild(context.Background(), dir, fastRebuild)
	if err != nil {
		t.Fatal(err)
	}
	if gens, _ := store.Generations(dir); !slices.Equal(gens, []string{res.To}) || res.Docs != len(docs) {
		t.Fatalf("after a clean rebuild: generations %v, %d documents", gens, res.Docs)
	}
}

// A rebuild keeps a tier given explicitly at ingest; Reclassify re-tiers
// it by the current rules too.
func TestRebuildReclassify(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	given := Doc{ID: "c1", Text: "Complains of chest pain for two hours.", Type: "complaint", Tier: base.T1}
	if _, err := db.Ingest(context.Background(), []Doc{given, crashDoc(1, 0)}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, reclassify := range []bool{false, true} {
		res, err := Rebuild(context.Background(), dir, &RebuildOptions{Grace: time.Millisecond, Reclassify: reclassify})
		if err != nil {
			t.Fatal(err)
		}
		db := openChecked(t, dir, nil)
		views, err := db.Show([]string{"c1"})
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
		want, differ, by := base.T1, 0, "tier field"
		if reclassify {
			want, differ, by = base.T4, 1, "type table: complaint"
		}
		if res.TierDiffers != differ || views[0].Tier != want {
			t.Fatalf("reclassify=%v: %d differ, tier %s; want %d, %s", reclassify, res.TierDiffers, views[0].Tier, differ, want)
		}
		if c := views[0].Chunks[0]; c.TierBy != by || c.TierOf != TierOfDocument {
			t.Fatalf("reclassify=%v: chunk tier by %q of %q, want %q of the document", reclassify, c.TierBy, c.TierOf, by)
		}
	}
}

func TestRebuildMissingStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nothing")
	if _, err := Rebuild(context.Background(), dir, fastRebuild); !errors.Is(err, store.ErrMissing) {
		t.Fatalf("rebuild of a missing store: %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("rebuild created %s", dir)
	}
	foreign := t.TempDir()
	os.WriteFile(filepath.Join(foreign, "notes.txt"), nil, 0o644)
	if _, err := Rebuild(context.Background(), foreign, fastRebuild); !errors.Is(err, store.ErrNotStore) {
		t.Fatalf("rebuild of a foreign directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(foreign, "LOCK")); err == nil {
		t.Fatal("rebuild wrote a LOCK file into a foreign directory")
	}
}

// BenchmarkRebuild measures a rebuild of n generated documents.
func BenchmarkRebuild(b *testing.B) {
	n := 2000
	if s := os.Getenv("MEDKB_REBUILD_DOCS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	dir := filepath.Join(b.TempDir(), "kb")
	db, err := Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	for a := 0; a < n; a += 1000 {
		var docs []Doc
		for i := a; i < min(a+1000, n); i++ {
			docs = append(docs, crashDoc(i, 0))
		}
		if _, err := db.Ingest(context.Background(), docs); err != nil {
			b.Fatal(err)
		}
	}
	db.Close()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Rebuild(context.Background(), dir, fastRebuild); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "docs")
}

// TestRebuildSuppliedVectorModel: a rebuild with the same embedder keeps
// a supplied vector and the model it names; one to another embedder drops
// both, since the vector belongs to the old model.
func TestRebuildSuppliedVectorModel(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	vec := make([]float32, DefaultDim)
	vec[0] = 1
	if _, err := db.Ingest(context.Background(), []Doc{{ID: "v", Text: "troponin", Vector: vec, Embedder: "hash-v1"}}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	exported := func() Doc {
		t.Helper()
		db, err := Open(dir, &Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var got Doc
		if err := db.Export(func(d *Doc) error { got = *d; return nil }); err != nil {
			t.Fatal(err)
		}
		return got
	}
	if _, err := Rebuild(context.Background(), dir, fastRebuild); err != nil {
		t.Fatal(err)
	}
	if d := exported(); len(d.Vector) != DefaultDim || d.Embedder != "hash-v1" {
		t.Fatalf("same embedder: vector of %d, embedder %q", len(d.Vector), d.Embedder)
	}
	if _, err := Rebuild(context.Background(), dir, &RebuildOptions{Grace: fastRebuild.Grace, Embedder: embed.NewHash(128)}); err != nil {
		t.Fatal(err)
	}
	if d := exported(); d.Vector != nil || d.Embedder != "" {
		t.Fatalf("another embedder: vector of %d, embedder %q", len(d.Vector), d.Embedder)
	}
}
