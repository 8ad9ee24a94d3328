package planner_test

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestExpandRespectsPatientFilter: anchors read from the top fused chunks
// come only from the filtered patient's record. "chest pain" names a
// symptom, so the top chunks are read: across the store they name
// myocardial infarction (patient P001's reports, an abstract), in P001's
// record too, in P002's record nothing of type Disease; under docvote,
// which brings whole documents, as under rrf.
func TestExpandRespectsPatientFilter(t *testing.T) {
	db := openSample(t)
	for _, fuse := range []string{"rrf", "docvote"} {
		for _, c := range []struct {
			patient string
			want    []string
		}{
			{"", []string{"myocardial infarction"}},
			{"P001", []string{"myocardial infarction"}},
			{"P002", []string{}},
		} {
			where := ""
			if c.patient != "" {
				where = `WHERE patient = "` + c.patient + `"`
			}
			q := `RETRIEVE "chest pain" ` + where + ` FUSE ` + fuse + ` EXPAND metapath "Disease -has_symptom-> Symptom" LIMIT 3`
			r, err := db.Query(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.Expansion.Anchors, c.want) {
				t.Errorf("%s: anchors %q, want %q", q, r.Expansion.Anchors, c.want)
			}
			for _, it := range r.Items {
				if c.patient != "" && it.Provenance.Path == nil && !strings.HasPrefix(it.Doc, c.patient+"-") {
					t.Errorf("%s: item %s from another patient", q, it.ID)
				}
			}
		}
	}
}
