package bm25

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestQueryTermsAndHolds: a query's terms come with their document
// frequencies, and Holds agrees with analysing each chunk's text, for
// chunks asked about in any order, repeated, deleted or never indexed.
func TestQueryTermsAndHolds(t *testing.T) {
	ix := openTemp(t)
	texts := []string{
		"Troponin I 2.3 ng/mL, creatinine 1.1 mg/dL",
		"血常规：白细胞 12.3×10^9/L，血红蛋白 118g/L",
		"Chest pain radiating to the left arm; troponins pending",
		"尿常规：尿蛋白（+++）",
		"Penicillin allergy: anaphylaxis",
	}
	var docs []Doc
	for i, s := range texts {
		docs = append(docs, Doc{Ord: uint64(10 + i), Doc: "d", Text: s})
	}
	apply(t, ix, 1, nil, docs...)
	apply(t, ix, 2, []uint64{14}) // the allergy note is deleted

	terms, n, err := ix.QueryTerms(context.Background(), "troponin 血常规 bicycle")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]uint64{}
	for _, term := range terms {
		got[term.Text] = term.DF
		if term.CJK != (term.Text == "血常" || term.Text == "常规") {
			t.Errorf("term %q: CJK %v", term.Text, term.CJK)
		}
	}
	if n != 4 || got["troponin"] != 2 || got["血常"] != 1 || got["常规"] != 2 || got["bicycl"] != 0 || len(terms) != 4 {
		t.Errorf("QueryTerms: %d chunks, terms %v", n, got)
	}

	probe := []string{"troponin", "常规", "anaphylaxi", "pain", "白细"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		ords := make([]uint64, 1+rng.IntN(8))
		for i := range ords {
			ords[i] = uint64(8 + rng.IntN(9)) // 8..16: some never indexed, 14 deleted
		}
		holds, err := ix.Holds(context.Background(), probe, ords)
		if err != nil {
			t.Fatal(err)
		}
		for i, ord := range ords {
			var want []string
			if k := int(ord) - 10; k >= 0 && k < len(texts) && ord != 14 {
				want = ix.Terms(texts[k])
			}
			for j, term := range probe {
				if holds[i][j] != slices.Contains(want, term) {
					t.Errorf("Holds(%v): chunk %d term %q: %v", ords, ord, term, holds[i][j])
				}
			}
		}
	}
	if holds, err := ix.Holds(context.Background(), nil, []uint64{10}); err != nil || len(holds) != 1 || len(holds[0]) != 0 {
		t.Errorf("Holds without terms: %v, %v", holds, err)
	}
	if strings.Join(ix.Terms("Troponins and troponin"), " ") != "troponin" {
		t.Errorf("Terms repeats a term: %v", ix.Terms("Troponins and troponin"))
	}
}
