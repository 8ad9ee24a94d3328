package text

import (
	"strings"
	"unicode"
)

// WidthFold maps the full-width forms of ASCII (U+FF01..U+FF5E: ％，：Ａ１)
// to ASCII and the ideographic space U+3000 to a space; other runes are
// returned unchanged. Chinese text mixes both widths for the same
// characters.
func WidthFold(r rune) rune {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E:
		return r - 0xFEE0
	case r == 0x3000:
		return ' '
	}
	return r
}

// FoldKey is the form in which a hand-written key or quote is matched
// against a record's text (both sides folded, then strings.Contains):
// full-width forms (％，：ＡＢ) as ASCII, lower case, and without white
// space except one space between two digits. A key written as "2.8
// mg/dL" then matches a record that says "2.8mg/dL", and "ER（90%+）" one
// that says "ER(90%+)"; the value itself must still be there, and "11.5
// mg/dL" does not match "1 1.5 mg/dL".
func FoldKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	var last rune    // last rune written
	pending := false // white space skipped since then
	for _, r := range s {
		r = unicode.ToLower(WidthFold(r))
		if unicode.IsSpace(r) {
			pending = true
			continue
		}
		if pending && isDigit(last) && isDigit(r) {
			b.WriteByte(' ')
		}
		pending = false
		b.WriteRune(r)
		last = r
	}
	return b.String()
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }
