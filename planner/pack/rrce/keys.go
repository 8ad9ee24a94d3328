package rrce

import (
	"strings"
	"unicode"

	"github.com/medkb/medkb/internal/text"
)

// foldKey is the form in which keys are matched against packed text:
// full-width forms (％，：ＡＢ) as ASCII, lower case, and without white
// space except one space between two digits. A key written by hand as
// "2.8 mg/dL" then matches a record that says "2.8mg/dL", and "ER（90%+）"
// one that says "ER(90%+)"; the value itself must still be there, and
// "11.5 mg/dL" does not match "1 1.5 mg/dL".
func foldKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	var last rune    // last rune written
	pending := false // white space skipped since then
	for _, r := range s {
		r = unicode.ToLower(text.WidthFold(r))
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

func foldKeys(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = foldKey(k)
	}
	return out
}
