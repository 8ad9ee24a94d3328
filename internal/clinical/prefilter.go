package clinical

import (
	"sync"

	ahocorasick "github.com/petar-dambovaliev/aho-corasick"
)

// ruleLiterals tells, in one pass over a text, which literal terms of
// TextRules occur in it anywhere, so that firstRule searches for those
// alone. Searching each of the rules' 666 literals with strings.Index was
// most of Classify's time, which ingest pays for every document and
// chunk, while a text holds a handful of them. Where a literal occurs,
// terms.each still finds and checks its occurrences as before, so the
// matches are the same.
var ruleLiterals = indexLiterals(TextRules)

// literalIndex is an Aho-Corasick automaton over the distinct lower-case
// literals of some rules, searched in a text's lower-cased copy, and one
// over the distinct exact ones (acronyms), searched in the text as
// written. A literal's id (literal.id) is 1 + its position among the
// first's patterns, then the second's. The automata are built at the
// first find: building them takes about 90 ms, which every medkb command
// paid at start whether it classified text or not.
type literalIndex struct {
	lowerList, exactList []string
	once                 sync.Once
	lower, exact         automaton
}

type automaton struct {
	ac    ahocorasick.AhoCorasick
	first int // id of pattern 0
	n     int // patterns
}

// literalSet holds the ids of the literals found in one text.
type literalSet []uint64

func (s literalSet) has(id int) bool { return s[id/64]&(1<<(id%64)) != 0 }

// indexLiterals numbers the literals of rules' terms (their ignored terms
// are searched only after a hit, and stay unnumbered) and builds the
// automata over them.
func indexLiterals(rules []TextRule) *literalIndex {
	lower, exact := map[string]int{}, map[string]int{} // text -> pattern
	var lowerList, exactList []string
	for i := range rules {
		for _, lit := range rules[i].terms.literals {
			m, list := lower, &lowerList
			if lit.exact {
				m, list = exact, &exactList
			}
			if _, ok := m[lit.text]; !ok {
				m[lit.text] = len(*list)
				*list = append(*list, lit.text)
			}
		}
	}
	for i := range rules {
		for j := range rules[i].terms.literals {
			lit := &rules[i].terms.literals[j]
			if lit.exact {
				lit.id = 1 + len(lowerList) + exact[lit.text]
			} else {
				lit.id = 1 + lower[lit.text]
			}
		}
	}
	return &literalIndex{lowerList: lowerList, exactList: exactList}
}

// build makes the automata.
func (x *literalIndex) build() {
	x.lower, x.exact = newAutomaton(x.lowerList, 1), newAutomaton(x.exactList, 1+len(x.lowerList))
}

// newAutomaton builds a DFA over patterns for an overlapping search; the
// id of pattern 0 is first.
func newAutomaton(patterns []string, first int) automaton {
	b := ahocorasick.NewAhoCorasickBuilder(ahocorasick.Opts{MatchKind: ahocorasick.StandardMatch, DFA: true})
	return automaton{ac: b.Build(patterns), first: first, n: len(patterns)}
}

// find returns the set of literals that occur in s (lower is
// asciiLower(s)).
func (x *literalIndex) find(s, lower string) literalSet {
	x.once.Do(x.build)
	set := make(literalSet, (1+x.lower.n+x.exact.n+63)/64)
	x.lower.mark(set, lower)
	x.exact.mark(set, s)
	return set
}

// mark adds to set the patterns that occur in hay: every occurrence of
// every pattern is reported by an overlapping search.
func (a *automaton) mark(set literalSet, hay string) {
	if a.n == 0 {
		return
	}
	it := a.ac.IterOverlapping(hay)
	for m := it.Next(); m != nil; m = it.Next() {
		id := a.first + m.Pattern()
		set[id/64] |= 1 << (id % 64)
	}
}
