package clinical

import (
	"cmp"
	"slices"
	"strings"
)

// literalScan finds the literal terms of some term lists in one pass over
// a text. A filter of the byte pairs that begin a literal (lower-cased;
// the first byte with any byte after it for a one-byte literal) lets the
// pass skip, with one table lookup, every position where none can begin;
// where one may, the literals that begin with that byte are compared. It
// finds the spans that terms.each finds for the same literals, in order
// of their start rather than literal by literal, and each span once
// however many lists hold its literal. Searching a concept's twenty or so
// names and members one strings.Index at a time rescanned a 660-byte
// chunk for each, about 7 µs a chunk, and the relevance stage counts the
// mentions of a question's concepts in every candidate
// (Concept.Mentions).
//
// It is hand-written, though ruleLiterals searches with an Aho-Corasick
// library, because the library is about four times slower at this: on
// 660-byte NFCorpus chunks, its overlapping search over a concept's
// literals (the lower-case ones in the lower-cased chunk, the exact ones
// in the chunk, as ruleLiterals searches) took a median 11.3 µs and 8
// allocations a chunk before any word boundary is checked, against 2.7 µs
// and none here (BenchmarkMentionsAhoCorasick, BenchmarkMentionsNFCorpus;
// Mentions itself on the library, boundaries and count, 21.5 against
// 4.8 µs at a load of 5 on 2 cores). Its DFA takes every byte through an
// interface call and allocates each match; a concept's literals begin
// with a dozen of the 4096 byte pairs, so the filter here skips nearly
// every byte with one lookup. The two do different jobs: ruleLiterals
// tells which of the text rules' 666 literals occur anywhere, for
// terms.each to find and check; literalScan finds a concept's
// occurrences, boundaries checked, in order.
type literalScan struct {
	// lits are the distinct literals, the lower-case ones then the exact
	// ones, each part ordered by first byte; the lower-case ones whose
	// first byte is b are lits[lowerAt[b]:lowerAt[b+1]], the exact ones
	// lits[exactAt[b]:exactAt[b+1]].
	lits             []literal
	lowerAt, exactAt [257]uint16
	// starts holds pairKey of the first two bytes of every literal,
	// lower-cased; a pair it does not hold begins none.
	starts [64]uint64
}

// pairKey folds the byte pair a, b into 12 bits. Pairs that fold alike
// only cost a comparison that fails.
func pairKey(a, b byte) uint { return uint(a&63)<<6 | uint(b&63) }

// newLiteralScan indexes the literals of lists. It panics when a list holds
// a regular expression or a hand-written matcher, which a literal scan
// cannot find.
func newLiteralScan(lists ...terms) literalScan {
	var sc literalScan
	for _, t := range lists {
		if len(t.res) > 0 || len(t.finders) > 0 {
			panic("clinical: a literal scan over terms that are not all literals")
		}
		for _, lit := range t.literals {
			if !slices.Contains(sc.lits, lit) {
				sc.lits = append(sc.lits, lit)
			}
		}
	}
	if len(sc.lits) >= 1<<16 {
		panic("clinical: too many literals for a literal scan")
	}
	slices.SortStableFunc(sc.lits, func(a, b literal) int {
		if a.exact != b.exact {
			if a.exact {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.text[0], b.text[0])
	})
	k := 0
	for b := range 256 {
		sc.lowerAt[b] = uint16(k)
		for k < len(sc.lits) && !sc.lits[k].exact && int(sc.lits[k].text[0]) == b {
			k++
		}
	}
	sc.lowerAt[256] = uint16(k)
	for b := range 256 {
		sc.exactAt[b] = uint16(k)
		for k < len(sc.lits) && int(sc.lits[k].text[0]) == b {
			k++
		}
	}
	sc.exactAt[256] = uint16(k)
	for _, lit := range sc.lits {
		first := asciiLower(lit.text[:1])[0]
		if len(lit.text) == 1 {
			for b := range 256 {
				sc.addStart(first, byte(b))
			}
			continue
		}
		sc.addStart(first, asciiLower(lit.text[1:2])[0])
	}
	return sc
}

func (sc *literalScan) addStart(a, b byte) {
	k := pairKey(a, b)
	sc.starts[k/64] |= 1 << (k % 64)
}

// each calls visit with the span of every occurrence of every literal in
// s (lower is asciiLower(s)), in order of start; spans that start at the
// same byte come in no particular order.
func (sc *literalScan) each(s, lower string, visit func(start, end int)) {
	for i := range len(lower) {
		next := byte(0) // past the end, which only a one-byte literal may begin at
		if i+1 < len(lower) {
			next = lower[i+1]
		}
		if k := pairKey(lower[i], next); sc.starts[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		b := lower[i]
		for _, lit := range sc.lits[sc.lowerAt[b]:sc.lowerAt[b+1]] {
			if lit.at(lower, i) {
				visit(i, i+len(lit.text))
			}
		}
		b = s[i]
		for _, lit := range sc.lits[sc.exactAt[b]:sc.exactAt[b+1]] {
			if lit.at(s, i) {
				visit(i, i+len(lit.text))
			}
		}
	}
}

// at reports whether the literal occurs in hay at byte i, as terms.each
// accepts an occurrence: its text there, and the word boundaries it needs.
func (lit *literal) at(hay string, i int) bool {
	return strings.HasPrefix(hay[i:], lit.text) && lit.bounded(hay, i, i+len(lit.text))
}
