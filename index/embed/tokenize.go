package embed

import (
	"unicode"
	"unicode/utf8"
)

// token is a span of featurizer.text: a run of word characters (letters,
// digits, marks of non-CJK scripts) or a run of CJK characters.
type token struct {
	start, end int
	cjk        bool
}

// tokenize lowercases s into f.text as " tok tok ... tok ", every token
// preceded and followed by one space (the word-boundary marker of the
// character n-grams), and records the token spans in f.tokens.
func (f *featurizer) tokenize(s string) {
	f.text = append(f.text[:0], ' ')
	f.tokens = f.tokens[:0]
	open := false // a token is being written
	cjk := false  // ... and it is a CJK run
	closeToken := func() {
		if open {
			f.tokens[len(f.tokens)-1].end = len(f.text)
			f.text = append(f.text, ' ')
			open = false
		}
	}
	openToken := func(isCJK bool) {
		if open && cjk == isCJK {
			return
		}
		closeToken()
		f.tokens = append(f.tokens, token{start: len(f.text), cjk: isCJK})
		open, cjk = true, isCJK
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			default:
				closeToken()
				continue
			}
			openToken(false)
			f.text = append(f.text, c)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case isCJK(r):
			openToken(true)
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			openToken(false)
			r = unicode.ToLower(r)
		default:
			closeToken()
			continue
		}
		f.text = utf8.AppendRune(f.text, r)
	}
	closeToken()
}

// isCJK reports whether r is written without spaces between words:
// Han ideographs, kana and Hangul.
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}
