package medkb

import (
	"errors"
	"testing"

	"github.com/medkb/medkb/internal/reliability"
)

func TestResultWeigh(t *testing.T) {
	r := &Result{Items: []Item{
		{ID: "meta#0", Reliability: 1},
		{ID: "rct#0", Reliability: 0.875},
		{ID: "report#0", Reliability: 0.25},
		{ID: "lab#0"}, // a record: no design
	}}
	for _, c := range []struct {
		name    string
		stances map[string]string
		want    Tally
	}{
		{"a meta-analysis against a case report", map[string]string{"meta#0": StanceSupports, "report#0": StanceContradicts},
			Tally{Support: 1, Contradict: 0.25, Supporting: 1, Opposing: 1, Verdict: "supported"}},
		{"an RCT against a meta-analysis", map[string]string{"rct#0": StanceSupports, "meta#0": StanceContradicts, "report#0": StanceIrrelevant},
			Tally{Support: 0.875, Contradict: 1, Supporting: 1, Opposing: 1, Verdict: "contested"}},
		{"a record weighs nothing", map[string]string{"lab#0": StanceSupports},
			Tally{Supporting: 1, Verdict: "no evidence", Unweighable: []string{"lab#0"}}},
		{"nothing labelled", nil, Tally{Verdict: "no evidence"}},
	} {
		got, err := r.Weigh(c.stances, DefaultMargin)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got.Support != c.want.Support || got.Contradict != c.want.Contradict || got.Verdict != c.want.Verdict ||
			got.Supporting != c.want.Supporting || got.Opposing != c.want.Opposing || len(got.Unweighable) != len(c.want.Unweighable) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
	if _, err := r.Weigh(map[string]string{"nope#0": StanceSupports}, DefaultMargin); err == nil {
		t.Error("an id outside the result should be an error")
	}
	if _, err := r.Weigh(map[string]string{"meta#0": "agrees"}, DefaultMargin); err == nil {
		t.Error("an unknown stance should be an error")
	}
	if _, err := r.Weigh(nil, 1); !errors.Is(err, reliability.ErrInvalid) {
		t.Errorf("margin 1: got %v", err)
	}
}
