package bm25

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/medkb/medkb/internal/base"
)

func mustFilter(t *testing.T, f base.Filter) query.Query {
	t.Helper()
	q, err := filterQuery(f)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestTopKAgreesWithBleve: the unfiltered search that scores postings
// itself returns exactly what bleve's searchers return (the same chunks,
// the same order, bit-equal scores) on an index of several segments with
// deletes and replacements, for queries of one to maxDirectTerms terms
// (repeated terms and terms no chunk holds included), several k and
// filters, and its hits say which terms they hold as Holds does. A filter
// that admits most chunks is left to bleve.
func TestTopKAgreesWithBleve(t *testing.T) {
	ix := openTemp(t)
	model := syntheticModel()
	r := rand.New(rand.NewPCG(11, 12))
	const batches, size = 6, 400
	for b := range uint64(batches) {
		docs := model.docs(r, b*size, size)
		for i := range docs {
			docs[i].Text = model.text(r, 5+r.IntN(60)) // lengths vary
		}
		var deletes []uint64
		if b > 0 {
			for range 40 {
				deletes = append(deletes, uint64(r.IntN(int(b*size))))
			}
			docs = append(docs, model.docs(r, uint64(r.IntN(int(b*size))), 1)...) // an upsert
		}
		if err := ix.Apply(b+1, deletes, docs); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	queries := slices.Clone(model.queries)
	for range 100 {
		q := model.text(r, 1+r.IntN(maxDirectTerms))
		if r.IntN(4) == 0 {
			q += " " + strings.Fields(q)[0] + " zzunseen"
		}
		queries = append(queries, q)
	}
	var many []string
	for p := range 100 {
		many = append(many, fmt.Sprintf("P%03d", p))
	}
	filters := []base.Filter{nil,
		{cond(base.FieldPatient, base.OpEq, "P042")},
		{cond(base.FieldPatient, base.OpIn, many...), cond(base.FieldTime, base.OpGe, "2020-01-01")},
	}
	broad := base.Filter{cond(base.FieldPatient, base.OpNe, "P001"), cond(base.FieldTier, base.OpIn, "T1", "T2")}
	checked, skipped := 0, 0
	for _, q := range queries {
		terms := ix.an.text.Analyze([]byte(q))
		if len(terms) == 0 || len(terms) > maxDirectTerms {
			continue
		}
		words := make([]string, len(terms))
		for i, tok := range terms {
			words[i] = string(tok.Term)
		}
		uniq := distinct(words)
		if _, _, ok, err := ix.topK(ctx, words, uniq, 10, broad, mustFilter(t, broad)); ok || err != nil {
			t.Fatalf("%q: a broad filter was not left to bleve (%v)", q, err)
		}
		for i, k := range []int{1, 7, 50, 300} {
			f := filters[(checked+i)%len(filters)]
			got, skip, ok, err := ix.topK(ctx, words, uniq, k, f, mustFilter(t, f))
			if skip > 0 {
				skipped++
			}
			if err != nil || !ok {
				t.Fatalf("%q: topK: %v, %v", q, ok, err)
			}
			want, err := ix.searchBleve(ctx, terms, k, f, mustFilter(t, f))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%q k=%d %v: %d hits, bleve %d", q, k, f, len(got), len(want))
			}
			ords := make([]uint64, len(got))
			for i := range got {
				if got[i].Ord != want[i].Ord || got[i].Score != want[i].Score {
					t.Fatalf("%q k=%d %v: hit %d is %d at %v, bleve's %d at %v", q, k, f, i, got[i].Ord, got[i].Score, want[i].Ord, want[i].Score)
				}
				ords[i] = got[i].Ord
			}
			holds, err := ix.Holds(ctx, uniq, ords)
			if err != nil {
				t.Fatal(err)
			}
			for i, h := range got {
				for j, term := range h.Terms {
					if h.Holds&(1<<j) != 0 != holds[i][j] || term != uniq[j] {
						t.Fatalf("%q k=%d: hit %d holds %b of %v, Holds says %v of %v", q, k, i, h.Holds, h.Terms, holds[i], uniq)
					}
				}
			}
		}
		checked++
	}
	if checked < 100 || skipped < 20 {
		t.Fatalf("checked %d queries, %d searches skipped postings", checked, skipped)
	}
	t.Logf("checked %d queries, %d searches skipped postings", checked, skipped)
}
