package clinical

import (
	"regexp"
	"strings"
)

// gatedRe is a regular expression behind a cheap necessary condition:
// every match of re holds one of exact as written or one of fold without
// regard to ASCII case, so a text that holds none of them is not run
// through re. Most texts hold none, and Go's regular expressions cost
// microseconds on a clause without a literal to start from.
//
// Under (?i) Go folds ſ (U+017F) to s and the Kelvin sign (U+212A) to k,
// the only runes outside ASCII that fold to an ASCII letter, so a text
// that holds either is always run through re: a fold literal is searched
// for in the ASCII-lower-cased text.
type gatedRe struct {
	re    *regexp.Regexp
	exact []string // literals as written (Chinese)
	fold  []string // ASCII literals in lower case
}

// MatchString is re.MatchString(s); lower is asciiLower(s).
func (g *gatedRe) MatchString(s, lower string) bool {
	return g.may(s, lower) && g.re.MatchString(s)
}

// may reports whether re may match s, whose asciiLower is lower.
func (g *gatedRe) may(s, lower string) bool {
	for _, lit := range g.exact {
		if strings.Contains(s, lit) {
			return true
		}
	}
	if len(g.fold) == 0 {
		return false
	}
	if foldsToASCII(s) {
		return true
	}
	return containsAny(lower, g.fold)
}

// foldsToASCII reports whether s holds a rune other than an ASCII letter
// that Go's (?i) matches as an ASCII letter: ſ or the Kelvin sign.
func foldsToASCII(s string) bool {
	return strings.Contains(s, "\u017f") || strings.Contains(s, "\u212a")
}

// containsAny reports whether s holds one of lits.
func containsAny(s string, lits []string) bool {
	for _, lit := range lits {
		if strings.Contains(s, lit) {
			return true
		}
	}
	return false
}
