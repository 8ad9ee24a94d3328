package clinical

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/golden"
	"github.com/medkb/medkb/internal/text"
)

// TestStateBCritical runs the cases of testdata/stateb_critical.txt:
// whenever a case gets a state B (from StateB, as ingest makes it, or from
// Compress), every phrase the case must keep is a substring of it. It
// also fails when fewer than a quarter of the cases get a state B, so it
// cannot pass by never compressing, and logs how many do, by class.
func TestStateBCritical(t *testing.T) {
	tok, err := text.NewTokenizer()
	if err != nil {
		t.Fatal(err)
	}
	type tally struct{ cases, withB int }
	byClass := map[string]*tally{}
	byLang := map[string]*tally{}
	var all tally
	golden.Run(t, filepath.Join("testdata", "stateb_critical.txt"), func(t *testing.T, c *golden.Case) string {
		id := c.Args["id"]
		var lines, keep []string
		for _, l := range strings.Split(c.Input, "\n") {
			if phrase, ok := strings.CutPrefix(l, "keep: "); ok {
				keep = append(keep, phrase)
			} else {
				lines = append(lines, l)
			}
		}
		s := strings.Join(lines, "\n")
		if c.Cmd != "stateb" || id == "" || len(keep) == 0 || c.Args["lang"] != text.Lang(s) {
			t.Errorf("case at line %d: want `stateb id=ID class=C lang=%s`, some text and a keep: line", c.Line, text.Lang(s))
		}
		for _, k := range keep {
			if !strings.Contains(s, k) {
				t.Errorf("%s: must-keep %q is not in the text", id, k)
			}
		}
		tokensA := tok.Count(s)
		b, tokensB, _, _ := StateB(s, tokensA, tok.Count)
		cb, n, total := Compress(s)
		checkCompress(t, s, cb, n, total)
		for _, state := range []string{b, cb} {
			for _, k := range keep {
				if state != "" && !strings.Contains(state, k) {
					t.Errorf("%s: state B %q lost %q", id, state, k)
				}
			}
		}
		classes := strings.Split(c.Args["class"], ",")
		tallies := []*tally{&all, byLang[c.Args["lang"]]}
		if tallies[1] == nil {
			byLang[c.Args["lang"]] = &tally{}
			tallies[1] = byLang[c.Args["lang"]]
		}
		for _, class := range classes {
			if byClass[class] == nil {
				byClass[class] = &tally{}
			}
			tallies = append(tallies, byClass[class])
		}
		for _, tl := range tallies {
			tl.cases++
			if b != "" {
				tl.withB++
			}
		}
		if b == "" {
			return fmt.Sprintf("no state B (A %d tokens)", tokensA)
		}
		return fmt.Sprintf("A %d tokens, B %d:\n%s", tokensA, tokensB, b)
	})
	classes := make([]string, 0, len(byClass))
	for class := range byClass {
		classes = append(classes, class)
	}
	slices.Sort(classes)
	for _, class := range classes {
		t.Logf("%-10s %3d cases, %3d with a state B", class, byClass[class].cases, byClass[class].withB)
	}
	for _, lang := range []string{"en", "zh"} {
		if tl := byLang[lang]; tl != nil {
			t.Logf("%-10s %3d cases, %3d with a state B", lang, tl.cases, tl.withB)
		}
	}
	t.Logf("%-10s %3d cases, %3d with a state B", "all", all.cases, all.withB)
	if all.cases < 100 || 4*all.withB < all.cases {
		t.Errorf("%d cases, %d with a state B: want at least 100 cases, a quarter of them with a state B", all.cases, all.withB)
	}
}
