package bm25

import (
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"github.com/medkb/medkb/internal/base"
)

// TestMappingMatchesDocuments indexes one chunk twice in memory, once
// through the declared mapping (as bleve would from a plain object) and
// once through toDocument, and checks that both produce the same fields and
// terms: the mapping describes what Apply really writes.
func TestMappingMatchesDocuments(t *testing.T) {
	m, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	d := Doc{Ord: 42, Doc: "P001-lab-1", Text: "Patient's tumors shrank; 肿瘤缩小。", Tier: base.T2, Type: "lab",
		Patient: "P001", Source: "EMR", Evidence: "rct", Lang: "en", Time: 17000,
		Meta: map[string]string{"dept": "oncology", "ward": "B 2"}}

	viaMapping, err := bleve.NewMemOnly(m)
	if err != nil {
		t.Fatal(err)
	}
	defer viaMapping.Close()
	err = viaMapping.Index(encodeOrd(d.Ord), map[string]interface{}{
		"text": d.Text, "doc": d.Doc, "tier": d.Tier.String(), "type": d.Type, "patient": d.Patient,
		"source": d.Source, "evidence": d.Evidence, "lang": d.Lang, "time": float64(d.Time),
		"meta": map[string]interface{}{"dept": "oncology", "ward": "B 2"},
	})
	if err != nil {
		t.Fatal(err)
	}

	byHand, err := bleve.NewMemOnly(m)
	if err != nil {
		t.Fatal(err)
	}
	defer byHand.Close()
	an := analyzers{text: m.AnalyzerNamed(textAnalyzer), keyword: m.AnalyzerNamed(keywordAnalyzer)}
	b := byHand.NewBatch()
	if err := b.IndexAdvanced(an.toDocument(&d, an.analyze([]Doc{d})[0])); err != nil {
		t.Fatal(err)
	}
	if err := byHand.Batch(b); err != nil {
		t.Fatal(err)
	}

	want, got := indexTerms(t, viaMapping), indexTerms(t, byHand)
	fields := func(m map[string][]string) []string {
		var f []string
		for k := range m {
			f = append(f, k)
		}
		slices.Sort(f)
		return f
	}
	if !slices.Equal(fields(got), fields(want)) {
		t.Fatalf("fields: by hand %v, via mapping %v", fields(got), fields(want))
	}
	for f := range want {
		if !slices.Equal(got[f], want[f]) {
			t.Errorf("field %s: by hand %q, via mapping %q", f, got[f], want[f])
		}
	}
	if text := want[fieldText]; !slices.Contains(text, "tumor") || !slices.Contains(text, "肿瘤") || !slices.Contains(text, "patient") {
		t.Errorf("text terms %q lack a stem, a CJK bigram or a possessive-free word", text)
	}
}

// indexTerms lists every term of every field of a bleve index.
func indexTerms(t *testing.T, idx bleve.Index) map[string][]string {
	t.Helper()
	fields, err := idx.Fields()
	if err != nil {
		t.Fatal(err)
	}
	terms := map[string][]string{}
	for _, f := range fields {
		dict, err := idx.FieldDict(f)
		if err != nil {
			t.Fatal(err)
		}
		for e, err := dict.Next(); e != nil || err != nil; e, err = dict.Next() {
			if err != nil {
				t.Fatal(err)
			}
			terms[f] = append(terms[f], e.Term)
		}
		dict.Close()
	}
	return terms
}
