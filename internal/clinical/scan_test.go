package clinical

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/shareddata"
)

// mentionsByEach is Concept.Mentions as terms.each finds the spans, one
// literal at a time: the reference the literal scan must agree with.
func mentionsByEach(c *Concept, s string) int {
	lower := asciiLower(s)
	var spans [][2]int
	add := func(start, end int) bool {
		spans = append(spans, [2]int{start, end})
		return false
	}
	c.names.each(s, lower, add)
	c.members.each(s, lower, add)
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	n, reach := 0, -1
	for _, sp := range spans {
		if sp[0] >= reach {
			n++
		}
		reach = max(reach, sp[1])
	}
	return n
}

// spansByEach are the distinct spans terms.each finds for the literals of
// lists, in order.
func spansByEach(s string, lists ...terms) [][2]int {
	lower := asciiLower(s)
	var spans [][2]int
	for _, t := range lists {
		t.each(s, lower, func(start, end int) bool {
			spans = append(spans, [2]int{start, end})
			return false
		})
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	return slices.Compact(spans)
}

// TestLiteralScan: the one-pass scan finds the spans that terms.each
// finds, in order of start, and Mentions counts what the spans counted
// one literal at a time, over every concept and random texts made of the
// concepts' own words (cased, cut, glued to word bytes) and filler.
func TestLiteralScan(t *testing.T) {
	var words []string
	for i := range Concepts {
		words = append(words, Concepts[i].Names...)
		words = append(words, Concepts[i].Members...)
	}
	filler := []string{" ", " ", ", ", "x", "9", "_", "-", "\n", "ab", "的", "：", "Z", "a"}
	rng := rand.New(rand.NewPCG(1, 2))
	text := func() string {
		var b strings.Builder
		for range rng.IntN(12) {
			w := strings.TrimSuffix(words[rng.IntN(len(words))], "*")
			switch rng.IntN(6) {
			case 0:
				w = strings.ToUpper(w)
			case 1:
				w = w[:rng.IntN(len(w)+1)] // may cut a rune: bytes, not text
			case 2:
				w = strings.ToLower(w)
			}
			b.WriteString(w)
			b.WriteString(filler[rng.IntN(len(filler))])
		}
		return b.String()
	}
	for range 4000 {
		s := text()
		for i := range Concepts {
			c := &Concepts[i]
			var got [][2]int
			c.scan.each(s, asciiLower(s), func(start, end int) { got = append(got, [2]int{start, end}) })
			if !slices.IsSortedFunc(got, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) }) {
				t.Fatalf("%s in %q: spans %v out of order", c.Name, s, got)
			}
			slices.SortFunc(got, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
			if want := spansByEach(s, c.names, c.members); !slices.Equal(got, want) {
				t.Fatalf("%s in %q: scan found %v, terms.each %v", c.Name, s, got, want)
			}
			if got, want := c.Mentions(NewText(s)), mentionsByEach(c, s); got != want {
				t.Fatalf("%s.Mentions(%q) = %d, one literal at a time %d", c.Name, s, got, want)
			}
		}
	}
}

// TestLiteralScanOneByte: a one-byte literal is found at every place,
// the last byte of the text included.
func TestLiteralScanOneByte(t *testing.T) {
	sc := newLiteralScan(compileTerms([]string{"k", "ab", "B*"}))
	var got [][2]int
	sc.each("k ab k", "k ab k", func(start, end int) { got = append(got, [2]int{start, end}) })
	if want := [][2]int{{0, 1}, {2, 4}, {5, 6}}; !slices.Equal(got, want) {
		t.Errorf("spans %v, want %v", got, want)
	}
}

// BenchmarkMentions counts a concept's mentions in a chunk-sized English
// text, as the relevance stage does for every candidate.
func BenchmarkMentions(b *testing.B) {
	var c *Concept
	for i := range Concepts {
		if Concepts[i].Name == "allergy" {
			c = &Concepts[i]
		}
	}
	s := strings.Repeat("patients with a history of drug allergy and rash were treated; anaphylaxis was rare in the cohort. ", 7)
	for b.Loop() {
		c.Mentions(NewText(s))
	}
}

// nfcorpusChunks cuts NFCorpus's test documents (lower-case English
// abstracts) into up to 400 chunks of 660 bytes, the relevance stage's
// candidates.
func nfcorpusChunks(b *testing.B) []string {
	_, docs := shareddata.ReadTSV(b, shareddata.Path(b, "nfcorpus", "test.docs"))
	var chunks []string
	for _, d := range docs {
		for len(d) >= 660 && len(chunks) < 400 {
			chunks = append(chunks, d[:660])
			d = d[660:]
		}
	}
	return chunks
}

// BenchmarkMentionsNFCorpus counts every concept's mentions in 660-byte
// chunks of NFCorpus's test documents (lower-case English abstracts), one
// Mentions call per op, cycling through chunks and concepts as the
// relevance stage does through candidates and a question's concepts.
func BenchmarkMentionsNFCorpus(b *testing.B) {
	chunks := nfcorpusChunks(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		Concepts[i%len(Concepts)].Mentions(NewText(chunks[i/len(Concepts)%len(chunks)]))
		i++
	}
}

// BenchmarkMentionsAhoCorasick is BenchmarkMentionsNFCorpus's search done
// by the Aho-Corasick library, as ruleLiterals searches: an overlapping
// search of an automaton over a concept's distinct lower-case literals in
// the lower-cased chunk and of one over its exact ones in the chunk. It
// neither checks word boundaries nor counts, so it is the least that
// Mentions would cost on the library (see literalScan).
func BenchmarkMentionsAhoCorasick(b *testing.B) {
	chunks := nfcorpusChunks(b)
	type pair struct{ lower, exact automaton }
	acs := make([]pair, len(Concepts))
	for i := range Concepts {
		var lower, exact []string
		for _, lit := range Concepts[i].scan.lits {
			list := &lower
			if lit.exact {
				list = &exact
			}
			if !slices.Contains(*list, lit.text) {
				*list = append(*list, lit.text)
			}
		}
		acs[i] = pair{newAutomaton(lower, 0), newAutomaton(exact, 0)}
	}
	b.ReportAllocs()
	i, n := 0, 0
	for b.Loop() {
		a, s := &acs[i%len(Concepts)], chunks[i/len(Concepts)%len(chunks)]
		for _, run := range []struct {
			a   *automaton
			hay string
		}{{&a.lower, asciiLower(s)}, {&a.exact, s}} {
			if run.a.n == 0 {
				continue
			}
			it := run.a.ac.IterOverlapping(run.hay)
			for m := it.Next(); m != nil; m = it.Next() {
				n++
			}
		}
		i++
	}
}
