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
// maxTokens tokens as counted by tok. A sentence that alone exceeds the cap
// is cut at spaces (or between CJK characters; inside a word only when the
// word itself exceeds the cap). Sentences in a chunk are joined with one
// space, or with nothing where either side is CJK.
func Chunk(s string, maxTokens int, tok Tokenizer) []string {
	maxTokens = max(maxTokens, MinChunkTokens)
	sentences := Sentences(s)
	if len(sentences) == 0 {
		return nil
	}
	// Most documents are short: try them whole before packing.
	if whole := joinAll(sentences); tok.Count(whole) <= maxTokens {
		return []string{whole}
	}
	var chunks []string
	cur, curTokens := "", 0
	for _, sentence := range sentences {
		for _, piece := range fitPieces(sentence, maxTokens, tok) {
			n := tok.Count(piece)
			if cur != "" && curTokens+n <= maxTokens+joinSlack {
				joined := join(cur, piece)
				if m := tok.Count(joined); m <= maxTokens {
					cur, curTokens = joined, m
					continue
				}
			}
			if cur != "" {
				chunks = append(chunks, cur)
			}
			cur, curTokens = piece, n
		}
	}
	if cur != "" {
		chunks = append(chunks, cur)
	}
	return chunks
}

// joinSlack bounds how far the sum of two counts may exceed the cap before
// Chunk stops trying to join them. BPE counts are not additive (merges
// across the seam can save a token or two), so the joined text is always
// counted exactly; the slack only skips counts that cannot succeed.
const joinSlack = 2

// join glues two pieces: nothing between them where either side is CJK,
// one space otherwise.
func join(a, b string) string {
	if separated(a, b) {
		return a + " " + b
	}
	return a + b
}

// joinAll joins sentences as join would, in one allocation.
func joinAll(sentences []string) string {
	var b strings.Builder
	size := len(sentences)
	for _, s := range sentences {
		size += len(s)
	}
	b.Grow(size)
	prev := ""
	for _, s := range sentences {
		if prev != "" && separated(prev, s) {
			b.WriteByte(' ')
		}
		b.WriteString(s)
		prev = s
	}
	return b.String()
}

// separated reports whether join puts a space between a and b.
func separated(a, b string) bool {
	last, _ := utf8.DecodeLastRuneInString(a)
	first, _ := utf8.DecodeRuneInString(b)
	return !IsCJK(last) && !IsCJK(first)
}

// fitPieces returns sentence whole if it fits, else cut into pieces that
// do: as many whole words (or CJK characters) as fit, and runes of a single
// word only when that word alone is too long.
func fitPieces(sentence string, maxTokens int, tok Tokenizer) []string {
	if tok.Count(sentence) <= maxTokens {
		return []string{sentence}
	}
	var pieces []string
	units := wordUnits(sentence)
	for i := 0; i < len(units); {
		start := units[i].start
		j := lastFit(i, len(units)-1, func(j int) bool {
			return tok.Count(sentence[start:units[j].end]) <= maxTokens
		})
		if j < i {
			pieces = append(pieces, runePieces(sentence[start:units[i].end], maxTokens, tok)...)
			i++
			continue
		}
		pieces = append(pieces, sentence[start:units[j].end])
		i = j + 1
	}
	return pieces
}

// runePieces cuts a single over-long word between runes.
func runePieces(word string, maxTokens int, tok Tokenizer) []string {
	var offsets []int // end offset of each rune
	for i := 0; i < len(word); {
		_, size := utf8.DecodeRuneInString(word[i:])
		i += size
		offsets = append(offsets, i)
	}
	var pieces []string
	start := 0
	for i := 0; i < len(offsets); {
		j := lastFit(i, len(offsets)-1, func(j int) bool {
			return tok.Count(word[start:offsets[j]]) <= maxTokens
		})
		j = max(j, i) // a lone rune always goes out, even over the cap
		pieces = append(pieces, word[start:offsets[j]])
		start = offsets[j]
		i = j + 1
	}
	return pieces
}

// lastFit returns the largest j in [lo, hi] for which fits(j) holds,
// assuming fits is true up to some point and false after it; lo-1 when
// fits(lo) is false. Token counts of growing prefixes are monotone in
// practice; where they are not, the j returned still satisfies fits.
func lastFit(lo, hi int, fits func(int) bool) int {
	if !fits(lo) {
		return lo - 1
	}
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
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
