package medkb

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/store"
)

// resultIDs lists a result's item ids with their scores, in rank order.
func resultIDs(r *Result) []string {
	var ids []string
	for _, it := range r.Items {
		ids = append(ids, it.ID)
	}
	return ids
}

// TestQuantizeInt8 checks a float32 store opened with Quantize int8: it
// records the choice, keeps no float32 slab, answers vector queries as
// the f32 store does (rescoring is exact), PACK included, EXPLAIN says
// so, and scan=f32, streamed from the file, answers as the f32 store's
// exact scan does; an f32 open of the same store goes back.
func TestQuantizeInt8(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, &Options{Quantize: QuantizeF32})
	if err != nil {
		t.Fatal(err)
	}
	if err := LoadSample(ctx, db); err != nil {
		t.Fatal(err)
	}
	queries := []string{
		`RETRIEVE "chest pain troponin" USING vector(k=8) LIMIT 8`,
		`RETRIEVE "creatinine kidney" USING vector(k=5) WHERE tier IN (T1, T2) LIMIT 5`,
		`RETRIEVE "chest pain, troponin 2.3 ng/mL" PACK budget 256`,
		`RETRIEVE "chest pain troponin" USING vector(k=8, scan=f32) LIMIT 8`,
		`RETRIEVE "creatinine kidney" USING vector(k=5, scan=f32) WHERE tier IN (T1, T2) LIMIT 5`,
	}
	want := map[string][]string{}
	for _, q := range queries {
		r, err := db.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		want[q] = resultIDs(r)
	}
	db.Close()

	db, err = Open(dir, &Options{Quantize: QuantizeInt8})
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := db.cur.st.Meta(); m.Quantize != store.QuantizeInt8 {
		t.Fatalf("the store recorded quantize %q", m.Quantize)
	}
	if db.cur.vec.DefaultScan() != vector.ScanInt8 {
		t.Fatal("the DB did not load an int8 index")
	}
	for _, q := range queries {
		r, err := db.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if got := resultIDs(r); strings.Join(got, " ") != strings.Join(want[q], " ") {
			t.Errorf("%s:\nint8 %v\nf32  %v", q, got, want[q])
		}
	}
	plan, err := db.Explain(ctx, `EXPLAIN RETRIEVE "x" USING vector(k=10)`)
	if err != nil || !strings.Contains(plan, "Retrieve vector k=10 scan=int8+rescore 42*") {
		t.Errorf("EXPLAIN on an int8 store: %v\n%s", err, plan)
	}
	plan, err = db.Explain(ctx, `EXPLAIN RETRIEVE "x" USING vector(k=10, scan=f32)`)
	if err != nil || !strings.Contains(plan, "Retrieve vector k=10 scan=f32\n") {
		t.Errorf("EXPLAIN scan=f32 on an int8 store: %v\n%s", err, plan)
	}
	// Ingest appends to the int8 index.
	doc := Doc{ID: "new-1", Text: "Zzyzx syndrome with quixotic fever."}
	if _, err := db.Ingest(ctx, []Doc{doc}); err != nil {
		t.Fatal(err)
	}
	r, err := db.Query(ctx, `RETRIEVE "zzyzx quixotic fever" USING vector(k=1) LIMIT 1`)
	if err != nil || len(r.Items) != 1 || r.Items[0].Doc != "new-1" {
		t.Fatalf("after ingest: %v %v", resultIDs(r), err)
	}
	if problems, err := db.Check(); err != nil || len(problems) > 0 {
		t.Errorf("check: %v %v", problems, err)
	}
	db.Close()

	ro, err := Open(dir, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if ro.cur.vec.DefaultScan() != vector.ScanInt8 {
		t.Error("a later open does not follow the recorded int8")
	}
	ro.Close()
	f32, err := Open(dir, &Options{Quantize: QuantizeF32})
	if err != nil {
		t.Fatal(err)
	}
	defer f32.Close()
	if m, _ := f32.cur.st.Meta(); m.Quantize != store.QuantizeF32 || f32.cur.vec.DefaultScan() != vector.ScanF32 {
		t.Errorf("Quantize f32: recorded %q, scan %v", m.Quantize, f32.cur.vec.DefaultScan())
	}
}

// TestQuantizeDefault: a new store holds int8 codes and records it; a
// store with writes that recorded nothing (made before the default)
// keeps float32 when opened without a choice, and so does an empty one
// that recorded Quantize f32.
func TestQuantizeDefault(t *testing.T) {
	ctx := context.Background()
	open := func(dir string, o *Options) *DB {
		t.Helper()
		db, err := Open(dir, o)
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	fresh := filepath.Join(t.TempDir(), "kb")
	db := open(fresh, nil)
	if m, _ := db.cur.st.Meta(); m.Quantize != store.QuantizeInt8 || db.cur.vec.DefaultScan() != vector.ScanInt8 {
		t.Errorf("a new store: recorded %q, scan %v", m.Quantize, db.cur.vec.DefaultScan())
	}
	db.Close()

	chosen := filepath.Join(t.TempDir(), "kb")
	open(chosen, &Options{Quantize: QuantizeF32}).Close()
	db = open(chosen, nil)
	if m, _ := db.cur.st.Meta(); m.Quantize != store.QuantizeF32 || db.cur.vec.DefaultScan() != vector.ScanF32 {
		t.Errorf("an empty store that chose f32: recorded %q, scan %v", m.Quantize, db.cur.vec.DefaultScan())
	}
	db.Close()

	older := filepath.Join(t.TempDir(), "kb")
	db = open(older, &Options{Quantize: QuantizeF32})
	if err := LoadSample(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := db.cur.st.SetQuantize(store.QuantizeNone); err != nil { // as a store made before the default
		t.Fatal(err)
	}
	db.Close()
	for _, o := range []*Options{nil, {ReadOnly: true}} {
		db = open(older, o)
		if m, _ := db.cur.st.Meta(); m.Quantize != store.QuantizeNone || db.cur.vec.DefaultScan() != vector.ScanF32 {
			t.Errorf("an older float32 store with writes, opened with %+v: recorded %q, scan %v", o, m.Quantize, db.cur.vec.DefaultScan())
		}
		db.Close()
	}
}

func TestQuantizeOptionValidated(t *testing.T) {
	if err := (&Options{Quantize: "int4"}).Validate(); err == nil || !strings.Contains(err.Error(), "Quantize") {
		t.Errorf("Quantize int4: %v", err)
	}
}

// TestRebuildKeepsQuantize: a rebuilt generation holds its slab as the
// old one did.
func TestRebuildKeepsQuantize(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, &Options{Quantize: QuantizeInt8})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := LoadSample(ctx, db); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Rebuild(ctx, nil); err != nil {
		t.Fatal(err)
	}
	g, release, err := db.snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if m, _ := g.st.Meta(); m.Quantize != store.QuantizeInt8 || g.vec.DefaultScan() != vector.ScanInt8 {
		t.Errorf("after rebuild: recorded %q, scan %v", m.Quantize, g.vec.DefaultScan())
	}
}
