package reliability

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/shareddata"
)

// TestPubMedQA types the expert-labelled PubMedQA abstracts by their text
// cues (no Evidence, no Type: the set has neither) and checks, on real
// years, that every abstract of a design outscores every abstract of a
// lower design, and that within a design a newer abstract outscores an
// older one. It skips when the shared data is absent.
func TestPubMedQA(t *testing.T) {
	path := shareddata.Path(t, "pubmedqa", "ori_pqal.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var set map[string]struct {
		Question string   `json:"QUESTION"`
		Contexts []string `json:"CONTEXTS"`
		Year     *string  `json:"YEAR"`
	}
	if err := json.Unmarshal(raw, &set); err != nil {
		t.Fatal(err)
	}
	now := day(t, "2026-01-01")
	type scored struct {
		year  string
		score float64
	}
	byDesign := map[Design][]scored{}
	for _, e := range set {
		if e.Year == nil {
			continue
		}
		d := Doc{Title: e.Question, Text: strings.Join(e.Contexts, "\n"), Published: *e.Year}
		byDesign[DesignOf(d)] = append(byDesign[DesignOf(d)], scored{*e.Year, Score(d, now)})
	}
	typed := 0
	for d := Synthesis; d > Unknown; d-- {
		typed += len(byDesign[d])
		t.Logf("%-17s %4d abstracts", d, len(byDesign[d]))
	}
	t.Logf("%-17s %4d abstracts (no cue)", Unknown, len(byDesign[Unknown]))
	if typed < 100 {
		t.Fatalf("only %d of %d abstracts typed by their design", typed, len(set))
	}
	// The design order: the lowest score of a design above the highest
	// of every design below it.
	highestBelow := 0.0
	for d := ExpertOpinion; d <= Synthesis; d++ {
		s := byDesign[d]
		if len(s) == 0 {
			continue
		}
		sort.Slice(s, func(i, j int) bool { return s[i].score < s[j].score })
		if s[0].score <= highestBelow {
			t.Errorf("%v: lowest score %v (year %s) not above the designs below (%v)", d, s[0].score, s[0].year, highestBelow)
		}
		highestBelow = s[len(s)-1].score
		// Recency within the design: sorted by score, the years never
		// decrease, and a strictly later year scores strictly higher.
		for i := 1; i < len(s); i++ {
			if s[i].year < s[i-1].year || s[i].year > s[i-1].year && !(s[i].score > s[i-1].score) {
				t.Errorf("%v: %s scores %v, %s scores %v", d, s[i-1].year, s[i-1].score, s[i].year, s[i].score)
			}
		}
		t.Logf("%-17s years %s..%s, scores %.3f..%.3f", d, s[0].year, s[len(s)-1].year, s[0].score, s[len(s)-1].score)
	}
}
