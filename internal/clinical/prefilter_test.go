package clinical

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRuleLiteralsAgree checks that every text rule fires, with the
// literals ruleLiterals finds, exactly where it fires searching all of
// them: on the sample corpus, the test sentences and records, and on
// random texts pieced together from the rules' own terms, cut, joined
// and cased so that terms overlap, nest and touch word boundaries.
func TestRuleLiteralsAgree(t *testing.T) {
	var texts []string
	for _, d := range readCorpus(t) {
		texts = append(texts, d.Text)
	}
	for _, name := range []string{"text_rules.tsv", "en_records.tsv", "zh_records.tsv", "zh_segments.tsv", "records_2.tsv"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, strings.Split(string(b), "\n")...)
	}
	var words []string
	for i := range TextRules {
		for _, lit := range TextRules[i].terms.literals {
			words = append(words, lit.text)
		}
	}
	seps := []string{" ", "", "-", ", ", "s ", "\n", "（", "ing ", "/"}
	rng := rand.New(rand.NewPCG(21, 8))
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			w := words[rng.IntN(len(words))]
			switch rng.IntN(4) {
			case 0:
				w = strings.ToUpper(w)
			case 1:
				w = w[rng.IntN(len(w)):] // a tail, perhaps mid-rune
			}
			b.WriteString(w)
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		texts = append(texts, b.String())
	}
	fired := 0
	for _, s := range texts {
		lower := asciiLower(s)
		found := ruleLiterals.find(s, lower)
		for i := range TextRules {
			r := &TextRules[i]
			want := r.matches(s, lower, nil)
			if got := r.matches(s, lower, found); got != want {
				t.Fatalf("rule %s on %q: %v with the literals found, %v searching all", r.Name, s, got, want)
			}
			if want {
				fired++
			}
		}
	}
	t.Logf("%d texts, %d rule hits", len(texts), fired)
}
