package bm25

import (
	"bytes"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
)

// memoAnalyzer returns a copy of the text analyzer a for one goroutine,
// with the same tokens and less work: its porter stemmer remembers the
// stem of each term (a stem is a function of the term alone, and the
// words of a batch repeat), and its CJK width filter passes ASCII terms
// by, which it would rewrite unchanged; its unicode tokenizer becomes
// asciiTokenizer, which gives the same tokens without the general
// segmenter on ASCII text. An analyzer of another shape is returned as
// it is.
func memoAnalyzer(a analysis.Analyzer) analysis.Analyzer {
	d, ok := a.(*analysis.DefaultAnalyzer)
	if !ok {
		return a
	}
	filters := make([]analysis.TokenFilter, len(d.TokenFilters))
	for i, f := range d.TokenFilters {
		switch f.(type) {
		case *porter.PorterStemmer:
			f = &memoFilter{inner: f, terms: make(map[string][]byte)}
		case *cjk.CJKWidthFilter:
			f = asciiSkip{inner: f}
		}
		filters[i] = f
	}
	tok := d.Tokenizer
	if _, ok := tok.(*unicode.UnicodeTokenizer); ok {
		tok = newASCIITokenizer()
	}
	return &analysis.DefaultAnalyzer{CharFilters: d.CharFilters, Tokenizer: tok, TokenFilters: filters}
}

// asciiSkip applies inner, a filter that leaves ASCII terms as they are,
// to the other tokens only.
type asciiSkip struct {
	inner analysis.TokenFilter
}

func (f asciiSkip) Filter(input analysis.TokenStream) analysis.TokenStream {
	for i, t := range input {
		if !isASCII(t.Term) {
			f.inner.Filter(input[i : i+1])
		}
	}
	return input
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
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
