package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MinChunkTokens is the smallest cap Chunk can honour: a character is at
// most four bytes, so it never costs more than four tokens. Smaller caps
// are raised to it.
const MinChunkTokens = 4

// Chunk packs the sentences of s, in order, into chunks of at most
// maxTokens tokens as counted by tok, a cl100k_base counter (see cost). A
// sentence that alone exceeds the cap is cut at spaces (or between CJK
// characters; inside a word only when the word itself exceeds the cap).
// Sentences in a chunk are joined with one space, or with nothing where
// either side is CJK.
//
// Each chunk takes the longest run of the next pieces that fits, found by
// lastFit in a few counts of about a chunk's text, whatever the length of
// s or of its sentences: chunking is linear in the length of s.
func Chunk(s string, maxTokens int, tok Tokenizer) []string {
	maxTokens = max(maxTokens, MinChunkTokens)
	sentences := Sentences(s)
	if len(sentences) == 0 {
		return nil
	}
	// Most documents are short: try them whole before packing.
	if whole := joinAll(sentences); cost(tok, whole, maxTokens) <= maxTokens {
		return []string{whole}
	}
	var p pieces
	for _, sentence := range sentences {
		p.fit(sentence, maxTokens, tok)
	}
	var chunks []string
	for i := 0; i < len(p.text); {
		j, _ := lastFit(i, len(p.text)-1, maxTokens, func(j int) int {
			if j == i {
				return p.cost[i] // known, and at most maxTokens
			}
			return cost(tok, joinAll(p.text[i:j+1]), maxTokens)
		})
		chunks = append(chunks, joinAll(p.text[i:j+1]))
		i = j + 1
	}
	return chunks
}

// maxTokenBytes is the length in bytes of cl100k_base's longest token
// (TestMaxTokenBytes checks it against the vocabulary).
const maxTokenBytes = 128

// cost returns the tokens s costs, or a bound on them when the length of
// s alone settles whether it fits maxTokens: every cl100k_base token
// covers at least one byte and at most maxTokenBytes, so a text of at
// most maxTokens bytes fits (its length bounds its count from above) and
// one longer than maxTokens*maxTokenBytes does not (its length over
// maxTokenBytes bounds its count from below). No count is longer than
// maxTokens*maxTokenBytes bytes: a megabyte without a space, which the
// counter would encode as one word, is never counted whole.
func cost(tok Tokenizer, s string, maxTokens int) int {
	switch {
	case len(s) <= maxTokens:
		return len(s)
	case len(s) > maxTokens*maxTokenBytes:
		return (len(s) + maxTokenBytes - 1) / maxTokenBytes
	}
	return tok.Count(s)
}

// joinAll joins pieces with one space, or with nothing where either side
// of the seam is CJK, in one allocation.
func joinAll(pieces []string) string {
	var b strings.Builder
	size := len(pieces)
	for _, s := range pieces {
		size += len(s)
	}
	b.Grow(size)
	prev := ""
	for _, s := range pieces {
		if prev != "" && separated(prev, s) {
			b.WriteByte(' ')
		}
		b.WriteString(s)
		prev = s
	}
	return b.String()
}

// separated reports whether joinAll puts a space between a and b.
func separated(a, b string) bool {
	last, _ := utf8.DecodeLastRuneInString(a)
	first, _ := utf8.DecodeRuneInString(b)
	return !IsCJK(last) && !IsCJK(first)
}

// pieces are the parts of a text that each fit the cap, with their costs.
type pieces struct {
	text []string
	cost []int
}

func (p *pieces) add(s string, cost int) {
	p.text = append(p.text, s)
	p.cost = append(p.cost, cost)
}

// fit adds sentence whole if it fits, else cut into pieces that do: as
// many whole words (or CJK characters) as fit, and runes of a single word
// only when that word alone is too long.
func (p *pieces) fit(sentence string, maxTokens int, tok Tokenizer) {
	if c := cost(tok, sentence, maxTokens); c <= maxTokens {
		p.add(sentence, c)
		return
	}
	units := wordUnits(sentence)
	for i := 0; i < len(units); {
		start := units[i].start
		j, c := lastFit(i, len(units)-1, maxTokens, func(j int) int {
			return cost(tok, sentence[start:units[j].end], maxTokens)
		})
		if j < i {
			p.runes(sentence[start:units[i].end], maxTokens, tok)
			i++
			continue
		}
		p.add(sentence[start:units[j].end], c)
		i = j + 1
	}
}

// runes cuts a single over-long word between runes. A rune has at most
// four bytes and maxTokens is at least MinChunkTokens, so cost finds
// that a lone rune fits without counting, and every piece holds one or
// more runes.
func (p *pieces) runes(word string, maxTokens int, tok Tokenizer) {
	var offsets []int // end offset of each rune
	for i := 0; i < len(word); {
		_, size := utf8.DecodeRuneInString(word[i:])
		i += size
		offsets = append(offsets, i)
	}
	start := 0
	for i := 0; i < len(offsets); {
		j, c := lastFit(i, len(offsets)-1, maxTokens, func(j int) int {
			return cost(tok, word[start:offsets[j]], maxTokens)
		})
		p.add(word[start:offsets[j]], c)
		start = offsets[j]
		i = j + 1
	}
}

// lastFit returns the largest j in [lo, hi] for which cost(j), the cost
// of the span from lo through j, is at most limit, and that cost,
// assuming cost grows with j; lo-1 when cost(lo) exceeds limit. Costs of growing spans are
// monotone in practice; where they are not, the j returned still costs
// at most limit.
//
// A probe costs about as much as counting its span, so the search keeps
// the probes few and none much longer than the answer. Costs grow about
// linearly (a token covers a few characters), so a probe aims at the
// index where a straight line through what is known reaches limit+1/2,
// inside the token that crosses limit. Until a span is known not to fit,
// the line runs from the origin through the longest span that fits, and
// each probe at least doubles the step, so that a bound in place of a
// count (see cost) still grows fast. Then the line runs between the
// longest span that fits and the shortest that does not; a probe that
// did not halve that interval is followed by one that bisects it, so a
// poor line (a long word makes a jump) costs at most twice the probes of
// a bisection. A typical call takes five to seven probes, where bisecting
// the whole remaining text made chunking a text without spaces quadratic.
func lastFit(lo, hi, limit int, cost func(j int) int) (int, int) {
	first := lo
	fitCost := cost(lo)
	if fitCost > limit {
		return lo - 1, fitCost
	}
	fit := lo                  // the longest span known to fit
	over, overCost := hi+1, -1 // the shortest known not to; overCost < 0: none yet
	step, halved := 1, true
	for fit+1 < over {
		var probe int
		switch {
		case overCost < 0:
			n := fit - first + 1
			probe = max(first+n*(2*limit+1)/(2*max(fitCost, 1))-1, fit+step)
			step *= 2
		case !halved:
			probe = fit + (over-fit)/2
		default:
			probe = fit + (2*(limit-fitCost)+1)*(over-fit)/(2*(overCost-fitCost))
		}
		probe = min(max(probe, fit+1), over-1)
		width := over - fit
		if c := cost(probe); c <= limit {
			fit, fitCost = probe, c
		} else {
			over, overCost = probe, c
		}
		halved = 2*(over-fit) <= width
	}
	return fit, fitCost
}

type span struct{ start, end int }

// wordUnits splits s into the units a long sentence may be cut between:
// runs of non-space, non-CJK characters, and single CJK characters.
func wordUnits(s string) []span {
	var units []span
	inWord := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(r):
			inWord = false
		case IsCJK(r):
			units = append(units, span{i, i + size})
			inWord = false
		case inWord:
			units[len(units)-1].end = i + size
		default:
			units = append(units, span{i, i + size})
			inWord = true
		}
		i += size
	}
	return units
}
