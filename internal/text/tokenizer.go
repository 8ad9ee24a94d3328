package text

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// Tokenizer counts the tokens a string costs in a prompt. medkb's only
// one is NewTokenizer's cl100k_base counter, and Chunk and CountAround
// rely on its properties (the longest token, where it cuts words).
type Tokenizer interface {
	Count(s string) int
}

// NewTokenizer returns the cl100k_base token counter. It works offline (the
// vocabulary is compiled in) and is safe for concurrent use; build one and
// share it, since construction compiles the split pattern and the counter
// learns the counts of the words it sees.
func NewTokenizer() (Tokenizer, error) {
	codec, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		return nil, fmt.Errorf("medkb: load cl100k_base tokenizer: %w", err)
	}
	return &cl100k{codec: codec, memo: make(map[string]int32)}, nil
}

// cl100k counts cl100k_base tokens, memoising the count of each word.
//
// cl100k_base first splits text into pieces with a regular expression and
// then encodes each piece on its own, so a text's count is the sum of its
// pieces' counts. Count cuts the text into words only at places where that
// expression always ends a piece (see cutBefore), so summing the words'
// counts gives exactly the library's count of the whole text. Clinical text
// repeats its vocabulary, so after warm-up most words are map hits and
// Count costs a scan and a few lookups instead of a regular-expression run
// per piece.
type cl100k struct {
	codec tokenizer.Codec
	mu    sync.RWMutex
	memo  map[string]int32 // word -> tokens; at most maxMemo entries
}

const (
	maxMemo     = 1 << 17 // words remembered; later new words are counted each time
	maxMemoWord = 48      // bytes; longer words are not remembered
	missBatch   = 8       // new words remembered per call
)

// Count returns the number of cl100k_base tokens in s.
func (c *cl100k) Count(s string) int {
	var misses [missBatch]string
	var missCounts [missBatch]int32
	nMiss, total := 0, 0
	c.mu.RLock()
	for len(s) > 0 {
		end := nextCut(s)
		word := s[:end]
		s = s[end:]
		if n, ok := c.memo[word]; ok {
			total += int(n)
			continue
		}
		n := c.countDirect(word)
		total += n
		if nMiss < missBatch && len(word) <= maxMemoWord {
			misses[nMiss], missCounts[nMiss] = word, int32(n)
			nMiss++
		}
	}
	c.mu.RUnlock()
	if nMiss > 0 {
		c.remember(misses[:nMiss], missCounts[:nMiss])
	}
	return total
}

func (c *cl100k) remember(words []string, counts []int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, w := range words {
		if len(c.memo) >= maxMemo {
			return
		}
		// Clone: w points into the caller's text, which must not be retained.
		c.memo[strings.Clone(w)] = counts[i]
	}
}

// countDirect asks the library. Its codec only fails when its split
// pattern fails to run, which it does not do on any input; should it ever,
// countDirect returns len(s), an upper bound (every token covers at least
// one byte), so a budget computed from it is never exceeded.
func (c *cl100k) countDirect(s string) int {
	n, err := c.codec.Count(s)
	if err != nil {
		return len(s)
	}
	return n
}

// CountAround returns count(before + s + after) given n = count(s),
// where count is a cl100k_base counter (Tokenizer.Count). Only the first
// and last words of s (see cutBefore) are counted again, joined to before
// and after: the cuts inside s do not depend on what surrounds it, so the
// words between keep their counts. The packer uses it to cost a chunk's
// context line, citation and newline included, without recounting the
// chunk's text, whose count was stored at ingest.
func CountAround(count func(string) int, before, s, after string, n int) int {
	first, last := nextCut(s), lastCut(s)
	if first == len(s) { // one word, or none
		return count(before + s + after)
	}
	return n - count(s[:first]) - count(s[last:]) + count(before+s[:first]) + count(s[last:]+after)
}

// lastCut returns the start of the last word of s: the last cut, or 0.
func lastCut(s string) int {
	r, i := utf8.DecodeLastRuneInString(s)
	i = len(s) - i
	for i > 0 {
		prev, size := utf8.DecodeLastRuneInString(s[:i])
		if cutBefore(prev, r) {
			return i
		}
		r = prev
		i -= size
	}
	return 0
}

// nextCut returns the end of the first word of s: the first cut after
// position 0, or len(s).
func nextCut(s string) int {
	prev, i := utf8.DecodeRuneInString(s)
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if cutBefore(prev, r) {
			return i
		}
		prev = r
		i += size
	}
	return len(s)
}

// cutBefore reports whether cl100k_base's split expression
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//	 ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// always ends a piece between prev and r. The expression looks only forward,
// so a cut where a piece always ends leaves the pieces after it unchanged.
//   - A space after a non-space: every alternative that can start at a
//     non-space stops at a space.
//   - Punctuation after a letter or digit: letter runs, digit runs and the
//     contractions all stop at punctuation.
//
// Only characters whose classes are the same in every Unicode version
// (ASCII, the basic CJK ideographs, common CJK punctuation) are trusted;
// anywhere else Count simply does not cut, which is exact but slower.
func cutBefore(prev, r rune) bool {
	switch {
	case r == ' ':
		return isASCIIGraphic(prev) || isStableLetterOrDigit(prev) || isCJKPunct(prev)
	case isASCIIGraphic(r) && !isASCIILetterOrDigit(r), isCJKPunct(r):
		return isStableLetterOrDigit(prev)
	}
	return false
}

func isASCIIGraphic(r rune) bool { return r > ' ' && r < 0x7F }

func isASCIILetterOrDigit(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

func isStableLetterOrDigit(r rune) bool {
	return isASCIILetterOrDigit(r) ||
		r >= 0x4E00 && r <= 0x9FFF || // CJK unified ideographs
		r >= 0x3400 && r <= 0x4DBF // extension A
}

func isCJKPunct(r rune) bool {
	switch r {
	case '，', '。', '；', '：', '、', '！', '？', '（', '）',
		'“', '”', '‘', '’', '《', '》', '【', '】', '…':
		return true
	}
	return false
}
