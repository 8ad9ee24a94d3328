package text

import "unicode"

// IsCJK reports whether r is a Chinese, Japanese or Korean character, or a
// CJK or full-width punctuation mark (。，；： and the like), which are
// written without spaces around them just like the characters.
func IsCJK(r rune) bool {
	switch {
	case r < 0x2E80:
		return false
	case r >= 0x3000 && r <= 0x303F, // CJK symbols and punctuation
		r >= 0xFF00 && r <= 0xFFEF: // half- and full-width forms
		return true
	}
	return isCJKLetter(r)
}

func isCJKLetter(r rune) bool {
	if r < 0x1100 { // below Hangul Jamo, the first CJK block
		return false
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// Lang returns "zh" when CJK characters dominate s, else "en". Each CJK
// character is weighed against one Latin word (a run of letters), since a
// Chinese character carries about as much as an English word: "肌酐 2.8
// mg/dL" is "zh", an English sentence quoting one herb name is "en". Empty
// text is "en".
func Lang(s string) string {
	cjk, words := 0, 0
	inWord := false
	for _, r := range s {
		switch {
		case isCJKLetter(r):
			cjk++
			inWord = false
		case unicode.IsLetter(r):
			if !inWord {
				words++
			}
			inWord = true
		default:
			inWord = false
		}
	}
	if cjk > 0 && cjk >= words {
		return "zh"
	}
	return "en"
}
