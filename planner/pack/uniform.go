package pack

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// packUniform cuts every block's state A to the same share r =
// Budget/total of its words (CJK: characters), keeping the beginning. The
// cut texts are costed with Params.Count; when the caller's tokenizer
// makes them overflow the budget, r shrinks until they fit, so TokensUsed
// never exceeds Budget. Counting is the caller's tokenizer, once per
// block and round, so it looks at ctx between blocks.
func packUniform(b *builder) error {
	cands, p := b.cands, b.p
	total := 0
	for i := range cands {
		total += max(cands[i].A.Tokens, 0)
	}
	if total <= p.Budget {
		for i := range cands {
			c := &cands[i]
			if c.A.Tokens <= 0 {
				b.drop(i, aOnlyOrEmpty(c), option{})
				continue
			}
			b.take(utilityAOption(i, c, p, c.A.Tokens), c.A.Text, WhyUniform, otherAOnly(c))
		}
		return nil
	}

	words := make([]int, len(cands))
	maxWords := 1
	for i := range cands {
		if cands[i].A.Tokens > 0 {
			words[i] = wordsBefore(cands[i].A.Text, -1)
		}
		maxWords = max(maxWords, words[i])
	}
	cut := make([]string, len(cands))
	tokens := make([]int, len(cands))
	for r := float64(p.Budget) / float64(total); ; {
		sum := 0
		for i := range cands {
			if err := b.ctx.Err(); err != nil {
				return err
			}
			k := int(r * float64(words[i]))
			cut[i], tokens[i] = "", 0
			if k > 0 {
				text := cands[i].A.Text
				cut[i] = strings.TrimSpace(text[:wordsBefore(text, k)])
				tokens[i] = p.Count(i, cut[i])
			}
			sum += tokens[i]
		}
		if sum <= p.Budget {
			break
		}
		r = max(0, min(r*float64(p.Budget)/float64(sum), r-1/float64(maxWords)))
	}

	for i := range cands {
		c := &cands[i]
		switch {
		case c.A.Tokens <= 0:
			b.drop(i, aOnlyOrEmpty(c), option{})
		case tokens[i] <= 0:
			b.drop(i, ReasonTruncated, utilityAOption(i, c, p, c.A.Tokens))
		default:
			b.take(utilityAOption(i, c, p, tokens[i]), cut[i], WhyUniform, otherAOnly(c))
		}
	}
	return nil
}

// utilityAOption is state A cut to the given tokens; its utility shrinks
// in proportion (the caller has no vector for the cut text).
func utilityAOption(i int, c *Candidate, p *Params, tokens int) option {
	full := blockScale(c, p) * p.sim(c, &c.A)
	s := State{Tokens: tokens}
	u := full * min(1, float64(tokens)/float64(c.A.Tokens))
	return newOption(i, &s, StateA, u, u/float64(tokens))
}

func aOnlyOrEmpty(c *Candidate) Reason {
	if hasState(c) {
		return ReasonAOnly
	}
	return ReasonEmpty
}

func otherAOnly(c *Candidate) Reason {
	if c.B != nil && c.B.Tokens > 0 {
		return ReasonAOnly
	}
	return ReasonNone
}

// wordsBefore scans s for words: runs of non-space characters, with each
// CJK character a word of its own. With k < 0 it returns the number of
// words; otherwise the byte offset where the k-th word ends (len(s) when
// s has fewer).
func wordsBefore(s string, k int) int {
	n, inWord := 0, false
	for i := 0; i < len(s); {
		c, size := rune(s[i]), 1
		if c >= utf8.RuneSelf {
			c, size = utf8.DecodeRuneInString(s[i:])
		}
		space := c == ' ' || c == '\n' || c == '\t' || c == '\r' || (c >= utf8.RuneSelf && unicode.IsSpace(c))
		switch {
		case space && inWord, c >= 0x2E80 && isCJK(c) && inWord:
			inWord = false
			if n == k {
				return i
			}
		}
		switch {
		case space:
		case c >= 0x2E80 && isCJK(c):
			n++
			if n == k {
				return i + size
			}
		case !inWord:
			n, inWord = n+1, true
		}
		i += size
	}
	if k < 0 {
		return n
	}
	return len(s)
}

func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}
