package clinical

import (
	"regexp"
	"strings"
)

// terms finds the terms of a TextRule in a text. Plain terms are found by
// substring search on a lower-cased copy (ASCII letters only, so byte
// offsets stay those of the original) with word boundaries checked by hand;
// only "re:" terms run a regular expression. A single regular expression
// for all terms of a rule is several hundred times slower in Go's regexp.
// firstRule searches only for the text rules' literals that one
// Aho-Corasick pass over the text found (ruleLiterals, prefilter.go).
type terms struct {
	literals []literal
	res      []gatedRegexp
	finders  []func(string) [][2]int // hand-written matchers
}

// gatedRegexp is a "re:" term; it runs only on texts whose lower-cased
// form holds one of its gates ("re(test):\btest..."), or always when it
// has none.
type gatedRegexp struct {
	re    *regexp.Regexp
	gates []string
}

type literal struct {
	text      string // lower case, unless exact
	exact     bool   // an acronym: match as written
	wordStart bool   // must start a word
	wordEnd   bool   // must end a word (not a "*" prefix term)
	id        int    // in ruleLiterals, for a text rule's term; 0 for none
}

func compileTerms(list []string) terms {
	var t terms
	for _, term := range list {
		if rest, ok := strings.CutPrefix(term, "re"); ok && (strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "(")) {
			t.res = append(t.res, compileGated(rest))
			continue
		}
		prefix := strings.HasSuffix(term, "*")
		term = strings.TrimSuffix(term, "*")
		lit := literal{
			text:      term,
			exact:     isAcronym(term),
			wordStart: isWordByte(term[0]),
			wordEnd:   !prefix && isWordByte(term[len(term)-1]),
		}
		if !lit.exact {
			lit.text = asciiLower(term)
		}
		t.literals = append(t.literals, lit)
	}
	return t
}

// any reports whether some term occurs in s.
func (t *terms) any(s string) bool {
	return t.each(s, asciiLower(s), func(int, int) bool { return true })
}

// each calls visit with the span of every occurrence of every term in s
// (lower is asciiLower(s)) until visit returns true, and reports whether it
// did.
func (t *terms) each(s, lower string, visit func(start, end int) bool) bool {
	return t.eachIn(s, lower, nil, visit)
}

// eachIn is each skipping the numbered literals (literal.id) that found,
// from ruleLiterals.find, says do not occur in s; a nil found skips none.
func (t *terms) eachIn(s, lower string, found literalSet, visit func(start, end int) bool) bool {
	for _, lit := range t.literals {
		if found != nil && lit.id > 0 && !found.has(lit.id) {
			continue
		}
		hay := lower
		if lit.exact {
			hay = s
		}
		for from := 0; from < len(hay); {
			i := strings.Index(hay[from:], lit.text)
			if i < 0 {
				break
			}
			start, end := from+i, from+i+len(lit.text)
			from = start + 1
			if !lit.bounded(hay, start, end) {
				continue
			}
			if visit(start, end) {
				return true
			}
		}
	}
	for _, find := range t.finders {
		for _, m := range find(s) {
			if visit(m[0], m[1]) {
				return true
			}
		}
	}
	for _, g := range t.res {
		if !g.open(lower) {
			continue
		}
		for _, m := range g.re.FindAllStringIndex(s, -1) {
			if visit(m[0], m[1]) {
				return true
			}
		}
	}
	return false
}

// bounded reports whether an occurrence of the literal at hay[start:end]
// has the word boundaries it needs.
func (lit *literal) bounded(hay string, start, end int) bool {
	return !(lit.wordStart && start > 0 && isWordByte(hay[start-1])) &&
		!(lit.wordEnd && end < len(hay) && isWordByte(hay[end]))
}

// compileGated reads ":regexp" or "(gate|gate):regexp".
func compileGated(spec string) gatedRegexp {
	var g gatedRegexp
	if rest, ok := strings.CutPrefix(spec, "("); ok {
		gates, re, found := strings.Cut(rest, "):")
		if !found {
			panic("clinical: bad gated term re(" + rest)
		}
		g.gates = strings.Split(gates, "|")
		spec = ":" + re
	}
	g.re = regexp.MustCompile(`(?i)` + strings.TrimPrefix(spec, ":"))
	return g
}

func (g *gatedRegexp) open(lower string) bool {
	return len(g.gates) == 0 || containsAny(lower, g.gates)
}

// asciiLower lower-cases ASCII letters only, keeping every byte offset.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// isAcronym reports whether term is written in capitals: at least two
// capital letters and no small ones.
func isAcronym(term string) bool {
	upper := 0
	for _, r := range term {
		switch {
		case r >= 'a' && r <= 'z':
			return false
		case r >= 'A' && r <= 'Z':
			upper++
		}
	}
	return upper >= 2
}
