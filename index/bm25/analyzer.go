package bm25

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/analysis"
)

// Analyzer analyses text into the terms this package indexes and
// searches for (stems, numbers, CJK bigrams: see "Analysis"), without an
// index: for a retrieval backend that keeps medkb's terms elsewhere and
// must see the same terms the embedded index does.
type Analyzer struct {
	an analyzers
}

// NewAnalyzer returns the analyzer of the index mapping.
func NewAnalyzer() (*Analyzer, error) {
	m, err := newMapping()
	if err != nil {
		return nil, err
	}
	an := analyzers{text: m.AnalyzerNamed(textAnalyzer), keyword: m.AnalyzerNamed(keywordAnalyzer)}
	if an.text == nil {
		return nil, fmt.Errorf("bm25: the mapping lacks analyzer %q", textAnalyzer)
	}
	return &Analyzer{an: an}, nil
}

// Tokens analyses the texts of docs on all CPUs, as Apply does: each
// text's tokens in order, repeats kept, so that a term's frequency in a
// chunk is its count there.
func (a *Analyzer) Tokens(docs []Doc) [][]string {
	streams := a.an.analyze(docs)
	out := make([][]string, len(streams))
	for i, s := range streams {
		out[i] = make([]string, len(s))
		for j, tok := range s {
			out[i][j] = string(tok.Term)
		}
	}
	return out
}

// Terms analyses s as Search does and returns its distinct terms in
// order of first occurrence (Index.Terms).
func (a *Analyzer) Terms(s string) []string {
	return distinctTerms(a.an.text, s)
}

// distinctTerms analyses s with text and returns its distinct terms in
// order of first occurrence.
func distinctTerms(text analysis.Analyzer, s string) []string {
	stream := text.Analyze([]byte(s))
	out := make([]string, 0, len(stream))
	seen := make(map[string]bool, len(stream))
	for _, tok := range stream {
		t := string(tok.Term)
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}
