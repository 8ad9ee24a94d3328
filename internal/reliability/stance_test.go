package reliability

import (
	"errors"
	"testing"
)

func TestWeigh(t *testing.T) {
	const ma, rct, cohort, report = 1.0, 0.875, 0.625, 0.25
	for _, tc := range []struct {
		name                string
		items               []Labelled
		support, contradict float64
		want                Verdict
	}{
		{"none", nil, 0, 0, NoEvidence},
		{"irrelevant only", []Labelled{{ma, Irrelevant}}, 0, 0, NoEvidence},
		{"zero reliability", []Labelled{{0, Supports}}, 0, 0, NoEvidence},
		{"one side", []Labelled{{report, Supports}}, report, 0, Supported},
		{"meta-analysis beats case report", []Labelled{{ma, Supports}, {report, Contradicts}}, ma, report, Supported},
		{"rct against cohort is contested", []Labelled{{rct, Supports}, {cohort, Contradicts}}, rct, cohort, Contested},
		{"equal is contested", []Labelled{{rct, Contradicts}, {rct, Supports}}, rct, rct, Contested},
		{"quality over quantity", []Labelled{{report, Supports}, {report, Supports}, {ma, Contradicts}, {rct, Irrelevant}}, 2 * report, ma, Contradicted},
		{"quantity adds up", []Labelled{{cohort, Supports}, {cohort, Supports}, {cohort, Supports}, {ma, Contradicts}}, 3 * cohort, ma, Supported},
	} {
		got, err := Weigh(tc.items, DefaultMargin)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got != (Tally{tc.support, tc.contradict, tc.want}) {
			t.Errorf("%s: Weigh = %+v, want %v/%v %s", tc.name, got, tc.support, tc.contradict, tc.want)
		}
	}
}

func TestWeighRefuses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		items  []Labelled
		margin float64
	}{
		{"margin 1", nil, 1},
		{"negative margin", nil, -0.1},
		{"reliability above 1", []Labelled{{1.5, Supports}}, 0.2},
		{"unknown stance", []Labelled{{0.5, Stance(7)}}, 0.2},
	} {
		if _, err := Weigh(tc.items, tc.margin); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", tc.name, err)
		}
	}
}
