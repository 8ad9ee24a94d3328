package gate

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestLabel(t *testing.T) {
	diseases := func(s string) (int, string) {
		n := 0
		for _, name := range []string{"type 2 diabetes mellitus", "冠心病"} {
			if strings.Contains(s, name) {
				n++
			}
		}
		return n, fmt.Sprintf("%d disease(s)", n)
	}
	for _, c := range []struct {
		sentence, label, why string
	}{
		{"Troponin I 2.3 ng/mL at 08:00.", Critical, "rule laboratory"},
		{"Renal biopsy shows intravascular spindle-shaped vacuoles.", Critical, "rule pathology"},
		{"Allergic to penicillin (anaphylaxis).", Critical, "rule allergy"},
		{"Blood pressure is 125/85 mm Hg.", Critical, "rule vital signs"},
		{"肌钙蛋白I 2.3 ng/mL。", Critical, ""},
		{"青霉素过敏。", Critical, "rule allergy"},
		{"A 67-year-old man comes to the physician because of a 2-day history of chest pain.", Helpful, "rule complaint"},
		{"He has type 2 diabetes mellitus.", Helpful, "names 1 disease(s)"},
		{"既往冠心病十年。", Helpful, ""},
		{"Which of the following is the most likely diagnosis?", Unimportant, "no rule, value or entity"},
		{"The attending tells the resident to leave it out of the report.", Unimportant, "no rule, value or entity"},
	} {
		label, why := Label(c.sentence, diseases)
		if label != c.label || (c.why != "" && why != c.why) {
			t.Errorf("Label(%q) = %s (%s), want %s (%s)", c.sentence, label, why, c.label, c.why)
		}
	}
}

func TestScore(t *testing.T) {
	units := func(labels string) []Unit {
		var out []Unit
		for _, l := range labels {
			out = append(out, Unit{Label: string(l)})
		}
		return out
	}
	for _, c := range []struct {
		labels string
		want   float64
	}{
		{"A", 1.0 / MinUnits},                  // one critical sentence is not a complete case
		{"AABC", (2 + 0.5 + 0.1) / MinUnits},   // short: normalised by MinUnits
		{strings.Repeat("A", MinUnits), 1},     // the most complete input
		{strings.Repeat("AB", MinUnits), 0.75}, // long: the paper's (1/(alpha n)) sum
		{strings.Repeat("C", 2*MinUnits), 0.1}, // all unimportant
		{"", 0},
	} {
		if got := Score(units(c.labels)); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Score(%s) = %g, want %g", c.labels, got, c.want)
		}
	}
}

func TestDecide(t *testing.T) {
	for _, c := range []struct {
		score float64
		want  string
	}{{0.9, Answer}, {0.42, Answer}, {0.41, Retrieve}, {0.14, Retrieve}, {0.13, Warn}, {0, Warn}} {
		if got := Decide(c.score, 0.42, 0.14); got != c.want {
			t.Errorf("Decide(%g) = %s, want %s", c.score, got, c.want)
		}
	}
}

// TestRead reads a short note: removing any of its sentences lowers the
// score, and only the A and B sentences retrieve.
func TestRead(t *testing.T) {
	note := "患者男，58岁。胸痛3小时。肌钙蛋白I 2.3 ng/mL。心电图示ST段抬高。谢谢。"
	r := Read(note, nil, DefaultTheta1, DefaultTheta2)
	var labels string
	for _, u := range r.Units {
		labels += u.Label
	}
	if labels != "CBAAC" {
		t.Fatalf("labels %s, want CBAAC: %+v", labels, r.Units)
	}
	if r.Decision != Retrieve || !strings.Contains(r.Summary(), "A 2, B 1, C 2 of 5") {
		t.Errorf("summary %s", r.Summary())
	}
	if q := r.Queries(note); strings.Join(q, "|") != "胸痛3小时。|肌钙蛋白I 2.3 ng/mL。|心电图示ST段抬高。" {
		t.Errorf("queries %q", q)
	}
	for i := range r.Units {
		if s := Score(Case(r.Units).Without(map[int]bool{i: true})); s >= r.Score {
			t.Errorf("masking %q gives %g, not below %g", r.Units[i].Text, s, r.Score)
		}
	}
	if q := (&Report{}).Queries("hello"); len(q) != 1 || q[0] != "hello" {
		t.Errorf("an input with no A or B sentence should query as a whole, got %q", q)
	}
}

func TestYoudenFreeCuts(t *testing.T) {
	if c := lowestCut(func(c float64) bool { return c >= 0.305 }); c != 0.31 {
		t.Errorf("lowestCut = %g", c)
	}
	if c := lowestCut(func(float64) bool { return false }); c != 1 {
		t.Errorf("lowestCut with no cut = %g", c)
	}
}
