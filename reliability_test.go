package medkb

import (
	"context"
	"fmt"
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

// TestPackReliability checks that PACK's reliability weight decides
// between two studies that say the same: with room for one, the
// meta-analysis is packed rather than the case report.
func TestPackReliability(t *testing.T) {
	db := openEmpty(t)
	ctx := context.Background()
	text := "Statins reduce myocardial infarction risk in adults."
	docs := []Doc{
		{ID: "a-report", Text: text, Evidence: "case report", Published: "2025"},
		{ID: "b-ma", Text: text, Evidence: "meta-analysis", Published: "2025"},
	}
	if _, err := db.Ingest(ctx, docs); err != nil {
		t.Fatal(err)
	}
	all, err := db.Query(ctx, `RETRIEVE "statins myocardial infarction" PACK budget 512 kmin 0 now "2026-01-01"`)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Items) != 2 {
		t.Fatalf("packed %d items, want both", len(all.Items))
	}
	budget := max(all.Items[0].Tokens, all.Items[1].Tokens) + 1 // room for one
	for _, tc := range []struct {
		weight string
		want   string
	}{{"0", "a-report"}, {"1", "b-ma"}} {
		r, err := db.Query(ctx, fmt.Sprintf(`RETRIEVE "statins myocardial infarction" PACK budget %d kmin 0 reliability %s now "2026-01-01"`, budget, tc.weight))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Items) != 1 || r.Items[0].Doc != tc.want {
			t.Errorf("reliability %s: packed %+v, want %s alone", tc.weight, r.Items, tc.want)
		}
	}
}
