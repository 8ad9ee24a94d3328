package reliability

import (
	"math"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

func day(t *testing.T, s string) base.Day {
	t.Helper()
	d, err := base.ParseDay(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDesignOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  Doc
		want Design
	}{
		{"evidence meta-analysis", Doc{Evidence: "Meta-Analysis"}, Synthesis},
		{"evidence systematic review", Doc{Evidence: "systematic_review"}, Synthesis},
		{"type guideline", Doc{Type: "guideline"}, Synthesis},
		{"evidence rct", Doc{Evidence: "RCT"}, RCT},
		{"evidence wins over type", Doc{Evidence: "cohort", Type: "rct"}, Cohort},
		{"type when evidence unknown", Doc{Evidence: "level 2b", Type: "rct"}, RCT},
		{"non-randomised trial", Doc{Evidence: "non-randomized trial"}, ClinicalTrial},
		{"clinical trial", Doc{Type: "clinical trial"}, ClinicalTrial},
		{"cohort", Doc{Evidence: "Retrospective Cohort"}, Cohort},
		{"case-control", Doc{Evidence: "case-control"}, CaseControl},
		{"case series", Doc{Evidence: "case series"}, CaseSeries},
		{"case report", Doc{Evidence: "case report"}, CaseReport},
		{"editorial", Doc{Type: "editorial"}, ExpertOpinion},
		{"chinese", Doc{Evidence: "病例对照研究"}, CaseControl},
		{"emr type", Doc{Type: "lab", Text: "patients were randomized"}, Unknown},
		{"cue rct", Doc{Text: "Patients were randomly assigned to drug or placebo."}, RCT},
		{"cue meta-analysis in title", Doc{Title: "A meta-analysis of statins"}, Synthesis},
		{"cited meta-analysis is no cue", Doc{Text: "A previous meta-analysis concluded otherwise."}, Unknown},
		{"cue lowest wins", Doc{Title: "This systematic review", Text: "We pooled a retrospective cohort and ..."}, Cohort},
		{"cue non-randomised beats randomized", Doc{Text: "a non-randomized trial; patients were randomized later"}, ClinicalTrial},
		{"cue case-control", Doc{Text: "In this case-control study of 200 women"}, CaseControl},
		{"cue case report", Doc{Text: "We report a case of ..."}, CaseReport},
		{"no cue", Doc{Text: "Troponin 2.3 ng/mL."}, Unknown},
		{"cited trials are no cue", Doc{Text: "Randomized controlled trials have shown benefit."}, Unknown},
	} {
		if got := DesignOf(tc.doc); got != tc.want {
			t.Errorf("%s: DesignOf = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestOrder checks the design order at every pair of ages within 30
// years: the weakest study of a design outscores the strongest of the
// design below.
func TestOrder(t *testing.T) {
	for d := ExpertOpinion; d < Synthesis; d++ {
		if low, high := Band(d+1, 30), Band(d, 0); !(low > high) {
			t.Errorf("%v at 30 years scores %v, not above %v at 0 years (%v)", d+1, low, d, high)
		}
	}
	if Band(Synthesis, 0) != 1 || Band(ExpertOpinion, 1000) < 0 {
		t.Errorf("scores outside [0, 1]: %v, %v", Band(Synthesis, 0), Band(ExpertOpinion, 1000))
	}
}

func TestScore(t *testing.T) {
	now := day(t, "2026-01-01")
	for _, tc := range []struct {
		name string
		doc  Doc
		want float64
	}{
		{"fresh meta-analysis", Doc{Evidence: "meta-analysis", Published: "2026-01-01"}, 1},
		{"rct ten years old", Doc{Evidence: "rct", Published: "2016-01-01"}, (6 + 0.5) / 8},
		{"future date counts as fresh", Doc{Evidence: "rct", Published: "2030"}, 7.0 / 8},
		{"time when no published", Doc{Evidence: "cohort", Time: "2006-01-01"}, (4 + 0.25) / 8},
		{"undated is half fresh", Doc{Evidence: "case report"}, (1 + 0.5) / 8},
		{"unparsable date is undated", Doc{Evidence: "case report", Published: "spring"}, (1 + 0.5) / 8},
		{"unknown design", Doc{Type: "lab", Published: "2026"}, 0},
	} {
		if got := Score(tc.doc, now); math.Abs(got-tc.want) > 1e-3 {
			t.Errorf("%s: Score = %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := Score(Doc{Evidence: "rct", Published: "2000"}, base.NoDay); got != (6+0.5)/8 {
		t.Errorf("no now: Score = %v, want the undated %v", got, (6+0.5)/8)
	}
}

func TestNewerOutscoresOlder(t *testing.T) {
	now := day(t, "2026-01-01")
	for d := ExpertOpinion; d <= Synthesis; d++ {
		newer := Score(Doc{Evidence: d.String(), Published: "2020"}, now)
		older := Score(Doc{Evidence: d.String(), Published: "2019-12"}, now)
		if !(newer > older) {
			t.Errorf("%v: 2020 scores %v, not above 2019-12's %v", d, newer, older)
		}
	}
}
