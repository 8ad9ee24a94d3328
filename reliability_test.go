package medkb

import (
	"context"
	"math"
	"testing"
)

// TestItemReliability checks that query results carry each document's
// evidence reliability, measured to PACK's now, and none for a record of
// no study design.
func TestItemReliability(t *testing.T) {
	db := openEmpty(t)
	ctx := context.Background()
	docs := []Doc{
		{ID: "ma", Text: "Statins reduce myocardial infarction risk across pooled trials.", Evidence: "meta-analysis", Published: "2016-01-01"},
		{ID: "rct", Text: "Statins reduced myocardial infarction in patients randomly assigned to atorvastatin.", Type: "rct", Published: "2026-01-01"},
		{ID: "lab", Text: "Statin level and myocardial infarction markers: troponin 0.01 ng/mL.", Type: "lab", Time: "2025-12-01"},
	}
	if _, err := db.Ingest(ctx, docs); err != nil {
		t.Fatal(err)
	}
	r, err := db.Query(ctx, `RETRIEVE "statins myocardial infarction" PACK budget 512 now "2026-01-01"`)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"ma": (7 + 0.5) / 8, "rct": 7.0 / 8, "lab": 0}
	seen := 0
	for _, it := range r.Items {
		w, ok := want[it.Doc]
		if !ok {
			continue
		}
		seen++
		if math.Abs(it.Reliability-w) > 1e-3 {
			t.Errorf("%s: reliability %v, want %v", it.Doc, it.Reliability, w)
		}
	}
	if seen != len(want) {
		t.Fatalf("packed %d of the %d documents: %+v", seen, len(want), r.Items)
	}
}
