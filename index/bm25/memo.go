package bm25

import (
	"bytes"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
)

// memoAnalyzer returns a copy of the text analyzer a for one goroutine,
// whose porter stemmer and CJK width filter remember the term each term
// became: both change a token's term as a function of that term alone,
// and the words of a batch repeat, so most tokens are looked up rather
// than decoded into runes and stemmed again. The tokens are the same as
// a's. An analyzer of another shape is returned as it is.
func memoAnalyzer(a analysis.Analyzer) analysis.Analyzer {
	d, ok := a.(*analysis.DefaultAnalyzer)
	if !ok {
		return a
	}
	filters := make([]analysis.TokenFilter, len(d.TokenFilters))
	for i, f := range d.TokenFilters {
		switch f.(type) {
		case *porter.PorterStemmer, *cjk.CJKWidthFilter:
			f = &memoFilter{inner: f, terms: make(map[string][]byte)}
		}
		filters[i] = f
	}
	return &analysis.DefaultAnalyzer{CharFilters: d.CharFilters, Tokenizer: d.Tokenizer, TokenFilters: filters}
}

// memoFilter applies inner, a filter that maps each token's term alone
// (keyword tokens apart, which it is given as they come), remembering
// its answers. Not safe for concurrent use.
type memoFilter struct {
	inner analysis.TokenFilter
	terms map[string][]byte
}

func (m *memoFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	for _, t := range input {
		if t.KeyWord {
			m.inner.Filter(analysis.TokenStream{t})
			continue
		}
		if out, ok := m.terms[string(t.Term)]; ok {
			t.Term = bytes.Clone(out) // later filters may change a term in place
			continue
		}
		in := string(t.Term)
		m.inner.Filter(analysis.TokenStream{t})
		m.terms[in] = bytes.Clone(t.Term)
	}
	return input
}
