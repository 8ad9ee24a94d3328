package bm25

import (
	"slices"
	"strings"
	"testing"
)

// TestAnalyzerAgreesWithIndex holds the index-free analyzer to the
// index's own: the same distinct terms, and tokens that keep repeats.
func TestAnalyzerAgreesWithIndex(t *testing.T) {
	ix := openTemp(t)
	a, err := NewAnalyzer()
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{
		"Patients' fevers were treated; the fever fell.",
		"患者发热三天，体温 39.5℃",
		"ＡＢＣ full-width and the stop words of an English sentence",
	}
	docs := make([]Doc, len(texts))
	for i, s := range texts {
		docs[i] = Doc{Ord: uint64(i), Text: s}
	}
	tokens := a.Tokens(docs)
	for i, s := range texts {
		if got, want := a.Terms(s), ix.Terms(s); !slices.Equal(got, want) {
			t.Errorf("Terms(%q) = %q, the index's %q", s, got, want)
		}
		var distinct []string
		for _, tok := range tokens[i] {
			if !slices.Contains(distinct, tok) {
				distinct = append(distinct, tok)
			}
		}
		if !slices.Equal(distinct, a.Terms(s)) {
			t.Errorf("Tokens(%q) = %q: distinct %q, Terms %q", s, tokens[i], distinct, a.Terms(s))
		}
	}
	if got := strings.Join(tokens[0], " "); got != "patient fever treat fever fell" {
		t.Errorf("tokens of %q = %q", texts[0], got)
	}
	if !slices.Contains(tokens[1], "发热") {
		t.Errorf("tokens of %q = %q: no bigram 发热", texts[1], tokens[1])
	}
}
