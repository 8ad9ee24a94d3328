package bm25

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
)

// asciiTokenizer gives the tokens of bleve's unicode tokenizer (UAX#29
// word segmentation, words and numbers kept, everything else dropped)
// without running the general segmenter on ASCII input, which is most
// medical text. Input holding any byte outside ASCII goes to the unicode
// tokenizer itself. See doc.go, "Analysis".
type asciiTokenizer struct {
	general analysis.Tokenizer
}

func newASCIITokenizer() *asciiTokenizer {
	return &asciiTokenizer{general: unicode.NewUnicodeTokenizer()}
}

// Byte classes, as bits. Within ASCII, UAX#29's word-boundary classes
// are: ALetter A-Z a-z; Numeric 0-9; ExtendNumLet _; MidLetter the
// colon; MidNum the comma and semicolon; MidNumLet the full stop;
// Single_Quote the apostrophe, which joins like MidNumLet; Double_Quote,
// which joins Hebrew letters only, so nothing here; CR, LF and Newline
// (VT, FF), which only separate, like everything else. Extend, Format
// and the script classes have no ASCII members.
const (
	bLetter  = 1 << iota // ALetter
	bDigit               // Numeric
	bConnect             // ExtendNumLet: joins anything wordlike on either side
	bJoinsL              // may sit between two letters (WB6, WB7)
	bJoinsD              // may sit between two digits (WB11, WB12)
	bHigh                // not ASCII: the general tokenizer's business

	bWord = bLetter | bDigit | bConnect
)

var asciiClass = func() (c [256]uint8) {
	for b := 'a'; b <= 'z'; b++ {
		c[b] = bLetter
		c[b-'a'+'A'] = bLetter
	}
	for b := '0'; b <= '9'; b++ {
		c[b] = bDigit
	}
	c['_'] = bConnect
	c[':'] = bJoinsL
	c[','] = bJoinsD
	c[';'] = bJoinsD
	c['.'] = bJoinsL | bJoinsD
	c['\''] = bJoinsL | bJoinsD
	for b := 0x80; b < 0x100; b++ {
		c[b] = bHigh
	}
	return c
}()

// Tokenize returns the words of input: maximal runs of letters, digits
// and _ in which a joining punctuation mark may stand alone between two
// letters or two digits that it joins ("a.b", "o'clock", "3.5", "1,000";
// "10:30" is two words, the colon joining letters only). A word is
// Numeric when it holds a digit and no letter, AlphaNumeric otherwise
// (letters, or only _). Positions count words from 1; terms share
// input's memory.
func (t *asciiTokenizer) Tokenize(input []byte) analysis.TokenStream {
	// A first pass checks that input is ASCII and counts its words, so
	// that the tokens take two allocations of the exact size (a token
	// holds about 7 bytes of NFCorpus text but takes 72 bytes), and
	// non-ASCII input goes to the general tokenizer having allocated
	// nothing.
	n := 0
	for i := 0; i < len(input); {
		c := asciiClass[input[i]]
		if c&bWord == 0 {
			if c == bHigh {
				return t.general.Tokenize(input)
			}
			i++ // punctuation, space, control: no word starts here
			continue
		}
		i, _ = wordEnd(input, i)
		n++
	}
	toks := make([]analysis.Token, n)
	stream := make(analysis.TokenStream, n)
	k := 0
	for i := 0; k < n; {
		if asciiClass[input[i]]&bWord == 0 {
			i++
			continue
		}
		start := i
		end, seen := wordEnd(input, i)
		typ := analysis.AlphaNumeric
		if seen&(bLetter|bDigit) == bDigit {
			typ = analysis.Numeric
		}
		toks[k] = analysis.Token{Term: input[start:end], Start: start, End: end, Position: k + 1, Type: typ}
		stream[k] = &toks[k]
		k++
		i = end
	}
	return stream
}

// wordEnd returns the end of the word that starts at input[i], a letter,
// digit or _, and the classes of the characters in it.
func wordEnd(input []byte, i int) (end int, seen uint8) {
	seen = asciiClass[input[i]]
	for i++; i < len(input); {
		c := asciiClass[input[i]]
		if c&bWord != 0 {
			seen |= c
			i++
			continue
		}
		// A joiner holds only between a letter and a letter or a digit
		// and a digit, directly on both sides; the character before it
		// is in the word, never another joiner, since a joiner is taken
		// together with the character after it.
		if c&(bJoinsL|bJoinsD) != 0 && i+1 < len(input) {
			before, after := asciiClass[input[i-1]], asciiClass[input[i+1]]
			if before == after && (before == bLetter && c&bJoinsL != 0 || before == bDigit && c&bJoinsD != 0) {
				i += 2
				continue
			}
		}
		break
	}
	return i, seen
}
