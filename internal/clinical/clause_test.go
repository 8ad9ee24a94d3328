package clinical

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// clauseAroundRunes is clauseAround as it was written first, rune by
// rune: the reference the byte scan must agree with.
func clauseAroundRunes(s string, start, end int) string {
	isStop := func(r rune) bool { return strings.ContainsRune(",;.!?，；。！？\n", r) }
	from := strings.LastIndexFunc(s[:start], isStop)
	if from < 0 {
		from = 0
	} else {
		_, size := utf8.DecodeRuneInString(s[from:])
		from += size
	}
	to := strings.IndexFunc(s[end:], isStop)
	if to < 0 {
		return s[from:]
	}
	return s[from : end+to]
}

// TestClauseAroundBytes checks the byte scans of clauseAround and
// indexColon against rune-by-rune scans, on random strings of stops,
// their bytes alone and in the wrong order, other runes and invalid
// UTF-8.
func TestClauseAroundBytes(t *testing.T) {
	parts := []string{",", ";", ".", "!", "?", "\n", "，", "；", "。", "！", "？", "：", ":", "a", " ", "检", "",
		"\xef", "\xbc", "\x8c", "\x9b", "\x81", "\x9f", "\xe3", "\x80", "\x82", "\xef\xbc", "\xe3\x80", "\xbc\x8c",
		"\xef\xbc\x82", "\xe3\x80\x8c", "\xf0\x9f", "\xc5\xbf", "\xe2\x84\xaa", "、", "（"}
	rng := rand.New(rand.NewPCG(3, 9))
	for range 200000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		start := rng.IntN(len(s) + 1)
		end := start + rng.IntN(len(s)-start+1)
		from, to := clauseAround(s, start, end)
		if got, want := s[from:to], clauseAroundRunes(s, start, end); got != want || from > start || to < end {
			t.Fatalf("clauseAround(%q, %d, %d) = %q, want %q", s, start, end, got, want)
		}
		if got, want := indexColon(s), strings.IndexAny(s, ":："); got != want {
			t.Fatalf("indexColon(%q) = %d, want %d", s, got, want)
		}
	}
}
