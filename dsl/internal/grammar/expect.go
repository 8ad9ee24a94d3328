package grammar

import (
	"errors"
	"reflect"
	"sort"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Expectation is the set of tokens that could have stood where parsing
// failed, each list in the order Words and Puncts give.
type Expectation struct {
	Words     []string // keywords, canonical spelling
	Puncts    []string // ";" is left out when End is set: it only ends a statement
	AnyString bool     // a string literal
	AnyNumber bool     // a number
	AnyName   bool     // any name at all (then Words is empty: every keyword is a name)
	End       bool     // end of statement
}

// Expect works out what the parser would have accepted at token i, where
// parsing toks stopped; partial is what Parse returned with its error.
//
// It asks the parser: each token of the vocabulary in turn is put in
// place of token i, and a candidate counts when the parser gets past it.
// The grammar is the only source of truth, so the answer follows it when
// it changes. That is one parse per candidate (about sixty), so the
// prefix parsed is first shortened: every list in partial (WHERE
// conditions, IN values, USING arms, metapaths, PACK options, weights)
// is cut to its last element, which leaves the parser in the same state
// at token i while a 64 KiB statement shrinks to a few dozen tokens.
func (p *Parser) Expect(toks []Token, i int, partial *Statement) Expectation {
	prefix := toks[:i]
	if short := shorten(toks, i, partial); p.consumesAll(short) {
		prefix = short
	}
	return p.expectAfter(prefix, toks[i].Pos)
}

// expectAfter probes the vocabulary after prefix, placing each candidate
// at position at.
func (p *Parser) expectAfter(prefix []Token, at lexer.Position) Expectation {
	accepts := func(kind Kind, text string) bool {
		probe := append(prefix[:len(prefix):len(prefix)], Token{Kind: kind, Text: text, Pos: at})
		return p.getsPast(probe, at)
	}
	var e Expectation
	e.AnyName = accepts(KindIdent, "x")
	if !e.AnyName {
		for _, w := range Words() {
			if accepts(KindIdent, w) {
				e.Words = append(e.Words, w)
			}
		}
	}
	e.End = accepts(KindEOF, "")
	for _, punct := range Puncts() {
		if punct == ";" && e.End {
			continue
		}
		if accepts(KindPunct, punct) {
			e.Puncts = append(e.Puncts, punct)
		}
	}
	e.AnyString = accepts(KindString, `"x"`)
	e.AnyNumber = accepts(KindNumber, "1")
	return e
}

// getsPast reports whether the parser, given toks, either succeeds or
// fails beyond position at. A synthetic end of input follows toks one
// byte after at, so that failing there counts as getting past.
func (p *Parser) getsPast(toks []Token, at lexer.Position) bool {
	if toks[len(toks)-1].Kind != KindEOF {
		end := at
		end.Offset++
		toks = append(toks, Token{Kind: KindEOF, Pos: end})
	}
	_, err := p.Parse(toks)
	var perr participle.Error
	return err == nil || errors.As(err, &perr) && perr.Position().Offset > at.Offset
}

// consumesAll reports whether the parser reads all of prefix without
// failing, the check that shortening kept it a valid prefix.
func (p *Parser) consumesAll(prefix []Token) bool {
	if len(prefix) == 0 {
		return true
	}
	last := prefix[len(prefix)-1]
	end := last.Pos
	end.Offset += len(last.Text)
	_, err := p.Parse(append(prefix[:len(prefix):len(prefix)], Token{Kind: KindEOF, Pos: end}))
	var perr participle.Error
	return err == nil || errors.As(err, &perr) && perr.Position().Offset >= end.Offset
}

// shorten returns toks[:i] with every list of partial that lies before
// token i cut to its last element.
func shorten(toks []Token, i int, partial *Statement) []Token {
	var cuts [][2]int // token ranges [from, to) to drop, in order
	collectCuts(reflect.ValueOf(partial), toks, i, &cuts)
	out := make([]Token, 0, i)
	next := 0
	for _, c := range cuts {
		out = append(out, toks[next:c[0]]...)
		next = c[1]
	}
	return append(out, toks[next:i]...)
}

var positionType = reflect.TypeOf(lexer.Position{})

// collectCuts walks a partial tree. For a list of two or more nodes whose
// last one starts before token i, the tokens from its first node up to
// its last are dropped; the walk goes on into the last node only.
func collectCuts(v reflect.Value, toks []Token, i int, cuts *[][2]int) {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	for f := range v.NumField() {
		field := v.Field(f)
		if field.Kind() != reflect.Slice || field.Len() == 0 {
			collectCuts(field, toks, i, cuts)
			continue
		}
		first, okFirst := nodeStart(field.Index(0), toks)
		last, okLast := nodeStart(field.Index(field.Len()-1), toks)
		if !okFirst || !okLast || last > i {
			continue
		}
		if first < last {
			*cuts = append(*cuts, [2]int{first, last})
		}
		collectCuts(field.Index(field.Len()-1), toks, i, cuts)
	}
}

// nodeStart returns the index of the token a node starts at.
func nodeStart(v reflect.Value, toks []Token) (int, bool) {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return 0, false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return 0, false
	}
	pos := v.FieldByName("Pos")
	if !pos.IsValid() || pos.Type() != positionType {
		return 0, false
	}
	off := pos.Interface().(lexer.Position).Offset
	idx := sort.Search(len(toks), func(j int) bool { return toks[j].Pos.Offset >= off })
	return idx, idx < len(toks) && toks[idx].Pos.Offset == off
}
