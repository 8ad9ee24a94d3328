package grammar

import (
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestVocabulary checks that Words and Puncts list exactly the literals of
// the grammar, so that lists of expected tokens cannot miss one.
func TestVocabulary(t *testing.T) {
	p, err := New()
	if err != nil {
		t.Fatal(err)
	}
	literal := regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
	inGrammar := map[string]bool{}
	for _, m := range literal.FindAllStringSubmatch(p.EBNF(), -1) {
		inGrammar[m[1]] = true
	}
	listed := map[string]bool{}
	for _, w := range append(Words(), Puncts()...) {
		if listed[w] {
			t.Errorf("%q listed twice", w)
		}
		listed[w] = true
	}
	if got, want := keys(listed), keys(inGrammar); got != want {
		t.Errorf("vocabulary differs from the grammar:\nlisted:  %s\ngrammar: %s", got, want)
	}
}

func keys(m map[string]bool) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, " ")
}

// TestScanIsTotal: any text lexes, the last token is EOF, and the tokens
// cover the input apart from whitespace and comments.
func TestScanIsTotal(t *testing.T) {
	for src, want := range map[string]string{
		`RETRIEVE "a\"b" -- c`:      `Ident:RETRIEVE String:"a\"b" EOF`,
		"x #\u3000'y":               `Ident:x Char:# Char:' Ident:y EOF`,
		`"open \"`:                  `OpenString:"open \" EOF`,
		"k=-1.5,2 >= != <=;":        `Ident:k Punct:= Number:-1.5 Punct:, Number:2 Punct:>= Punct:!= Punct:<= Punct:; EOF`,
		"meta.科室 = 病理2 ＝":           `Ident:meta Punct:. Ident:科室 Punct:= Ident:病理2 Char:＝ EOF`,
		"\"multi\nline\" --\n1.2.3": `String:"multi` + "\n" + `line" Number:1.2 Punct:. Number:3 EOF`,
	} {
		var got []string
		for _, tok := range Scan(src) {
			if tok.Kind == KindEOF {
				got = append(got, "EOF")
				continue
			}
			got = append(got, kindName(tok.Kind)+":"+tok.Text)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%q:\ngot  %s\nwant %s", src, strings.Join(got, " "), want)
		}
	}
}

func kindName(k Kind) string {
	return map[Kind]string{KindString: "String", KindOpenString: "OpenString", KindNumber: "Number",
		KindIdent: "Ident", KindPunct: "Punct", KindChar: "Char"}[k]
}
