package graph

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/medkb/medkb/internal/text"
)

// normalized is text in the form the linker matches on, with a map back to
// the original: orig[i] is the byte offset in the original text of the
// rune that produced normalised byte i, and orig[len(text)] is the
// original's length.
type normalized struct {
	text string
	orig []int
}

// normalize folds s for matching: full-width ASCII forms become ASCII and
// the ideographic space a space, every rune is case-folded (simple Unicode
// folding, so "ß" stays "ß"), and each run of white space becomes one
// space.
func normalize(s string) normalized {
	var b strings.Builder
	b.Grow(len(s))
	orig := make([]int, 0, len(s)+1)
	inSpace := false
	for i, r := range s {
		r = foldRune(text.WidthFold(r))
		if unicode.IsSpace(r) {
			if inSpace {
				continue
			}
			inSpace = true
			r = ' '
		} else {
			inSpace = false
		}
		for range utf8.RuneLen(r) {
			orig = append(orig, i)
		}
		b.WriteRune(r)
	}
	orig = append(orig, len(s))
	return normalized{text: b.String(), orig: orig}
}

// normKey is the dictionary form of an entity name or alias.
func normKey(s string) string {
	return strings.TrimSpace(normalize(s).text)
}

// foldRune maps r to one fixed member of its simple case-folding orbit
// (the lower case of the orbit's smallest rune), so that runes that fold
// together map to the same rune.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	return unicode.ToLower(least)
}

// spaced reports whether r is a letter or digit of a script written with
// spaces between words; a Latin name must not match inside such a word.
func spaced(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) &&
		!unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

// hasLetter reports whether s contains a letter.
func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}
