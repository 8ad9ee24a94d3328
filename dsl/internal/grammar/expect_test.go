package grammar

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
)

// failAt parses src and returns the tokens, the index parsing stopped at
// and the partial statement.
func failAt(t *testing.T, p *Parser, src string) ([]Token, int, *Statement) {
	t.Helper()
	toks := Scan(src)
	partial, err := p.Parse(toks)
	var perr participle.Error
	if !errors.As(err, &perr) {
		t.Fatalf("%s: want a parse error, got %v", src, err)
	}
	for i, tok := range toks {
		if tok.Pos.Offset >= perr.Position().Offset {
			return toks, i, partial
		}
	}
	t.Fatalf("%s: error position beyond the tokens", src)
	return nil, 0, nil
}

// TestShortenKeepsTheExpectation: probing after the shortened prefix gives
// what probing after the whole prefix gives, and the prefix is short.
func TestShortenKeepsTheExpectation(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	many := strings.Repeat(" AND type = x", 50)
	for _, src := range []string{
		`RETRIEVE "x" WHERE tier = T1` + many + ` FUZE`,
		`RETRIEVE "x" WHERE tier = T1` + many + ` AND`,
		`RETRIEVE "x" WHERE tier = T1` + many + ` AND patient IN (a, b, c, d, e, f`,
		`RETRIEVE "x" WHERE tier = T1` + many + ` AND patient IN (a, b, c, d, e, f,`,
		`RETRIEVE "x" USING bm25, vector, bm25(k=5) FUSE rrf(k=`,
		`RETRIEVE "x" EXPAND metapath "a", "b", "c" HOPS 2 LIMIT`,
		`RETRIEVE "x" EXPAND metapath "a", "b", "c",`,
		`RETRIEVE "x" PACK budget 5 kmin 1 lambda 0 weights (1, 1, 1`,
		`RETRIEVE "x" PACK budget 5 kmin 1 lambda 0 weights (1, 1, 1, 1) strategy`,
		`RETRIEVE "x" PACK budget 5 kmin 1 lambda 0 LIMIT 5 LIMIT`,
		`EXPLAIN ANALYZE RETRIEVE "x" WHERE a`,
	} {
		toks, i, partial := failAt(t, p, src)
		short := shorten(toks, i, partial)
		if !p.consumesAll(short) {
			t.Errorf("%s: shortened prefix is not a valid prefix: %v", src, texts(short))
			continue
		}
		if len(short) > 20 {
			t.Errorf("%s: shortened prefix still has %d tokens: %v", src, len(short), texts(short))
		}
		if got, want := p.Expect(toks, i, partial), p.expectAfter(toks[:i], toks[i].Pos); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\nshortened %+v\nwhole     %+v", src, got, want)
		}
	}
}

func texts(toks []Token) string {
	var out []string
	for _, t := range toks {
		out = append(out, t.Text)
	}
	return strings.Join(out, " ")
}

// FuzzExpect: for any statement that fails to parse, probing after the
// shortened prefix agrees with probing after the whole one.
func FuzzExpect(f *testing.F) {
	for _, s := range []string{
		`RETRIEVE "x" WHERE tier = T1 AND type = x AND patient IN (a, b`,
		`RETRIEVE "x" USING bm25, vector FUSE`,
		`RETRIEVE "x" EXPAND metapath "a", "b" HOPS`,
		`RETRIEVE "x" PACK budget 5 weights (1, 2,`,
		`EXPLAIN RETRIEVE`,
	} {
		f.Add(s)
	}
	p, err := New()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		toks := Scan(src)
		partial, err := p.Parse(toks)
		var perr participle.Error
		if !errors.As(err, &perr) {
			return
		}
		i := 0
		for i < len(toks)-1 && toks[i].Pos.Offset < perr.Position().Offset {
			i++
		}
		if got, want := p.Expect(toks, i, partial), p.expectAfter(toks[:i], toks[i].Pos); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\nshortened %+v\nwhole     %+v", src, got, want)
		}
	})
}
