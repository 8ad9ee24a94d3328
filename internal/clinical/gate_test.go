package clinical

import (
	"regexp"
	"strings"
	"testing"
)

// TestGatesNecessary checks that each gated expression's literals are
// necessary: wherever the expression matches, on every text of the
// agreement test and each of its clauses, the gate is open.
func TestGatesNecessary(t *testing.T) {
	gates := map[string]*gatedRe{"planned": &planned, "sampling": &sampling, "negation": &negation}
	var texts []string
	for _, src := range agreeSources(t) {
		texts = append(texts, src.texts...)
	}
	for _, s := range texts {
		clauses := []string{s}
		for i := 0; i < len(s); {
			from, to := clauseAround(s, i, i)
			if from > 0 || to < len(s) {
				clauses = append(clauses, s[from:to])
			}
			i = to + 1
		}
		for _, c := range clauses {
			for name, g := range gates {
				if g.re.MatchString(c) && !g.may(c, asciiLower(c)) {
					t.Fatalf("%s matches %q, but its gate is shut", name, c)
				}
			}
			if reportHeading.MatchString(c) && !hasColon(c) {
				t.Fatalf("reportHeading matches %q, which has no colon", c)
			}
		}
	}
	// The runes that fold to ASCII letters open every gate with a fold
	// literal.
	for name, g := range gates {
		for _, lit := range g.fold {
			for _, s := range []string{strings.ReplaceAll(lit, "s", "\u017f"), strings.ReplaceAll(lit, "k", "\u212a")} {
				if regexp.MustCompile(`(?i)`+regexp.QuoteMeta(lit)).MatchString(s) && !g.may(s, asciiLower(s)) {
					t.Errorf("%s: the gate is shut on %q", name, s)
				}
			}
		}
	}
}

// TestFindingNeedsNecessary checks that every match of a finding pattern
// with needs holds one of them, on the texts of the agreement test and
// the windows find runs the pattern on.
func TestFindingNeedsNecessary(t *testing.T) {
	var texts []string
	for _, src := range agreeSources(t) {
		texts = append(texts, src.texts...)
	}
	for i := range findings {
		f := &findings[i]
		if f.needs == nil {
			continue
		}
		for _, s := range texts {
			lower := asciiLower(s)
			hays := []string{s}
			for w := range f.windows(s, lower) {
				hays = append(hays, s[w.lo:w.hi])
			}
			for _, h := range hays {
				for _, m := range f.re.FindAllString(h, -1) {
					if !foldsToASCII(m) && !containsAny(asciiLower(m), f.needs) {
						t.Fatalf("finding %s matches %q, which holds none of %q", f.re, m, f.needs)
					}
				}
			}
		}
	}
}
