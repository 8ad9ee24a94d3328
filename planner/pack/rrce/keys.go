package rrce

import (
	"strings"
	"unicode"
)

// foldKey is the form in which keys are matched against packed text:
// without white space, with full-width ASCII forms (％，：ＡＢ) as their
// ASCII counterparts, in lower case. A key written by hand as "2.8 mg/dL"
// then matches a record that says "2.8mg/dL", and "ER（90%+）" one that
// says "ER(90%+)"; the value itself must still be there.
func foldKey(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return -1
		case r >= '！' && r <= '～':
			r -= '！' - '!'
		}
		return unicode.ToLower(r)
	}, s)
}

func foldKeys(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = foldKey(k)
	}
	return out
}
