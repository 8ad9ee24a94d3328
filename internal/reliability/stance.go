package reliability

import (
	"errors"
	"fmt"
)

// ErrInvalid is returned by Weigh when its margin, a reliability or a
// stance is out of range.
var ErrInvalid = errors.New("medkb: invalid evidence weighing")

// Stance is what a piece of evidence says of a claim, as the caller's
// judge (an NLI model, an LLM, a person) labelled it.
type Stance int

// The stances M-Eval labels evidence with.
const (
	Irrelevant Stance = iota
	Supports
	Contradicts
)

// Labelled is one piece of evidence: its reliability (Score) and stance.
type Labelled struct {
	Reliability float64
	Stance      Stance
}

// Verdict is what the summed reliability says of a claim.
type Verdict string

// The verdicts. NoEvidence: nothing relevant was labelled, or all of it
// scored 0.
const (
	Supported    Verdict = "supported"
	Contradicted Verdict = "contradicted"
	Contested    Verdict = "contested"
	NoEvidence   Verdict = "no evidence"
)

// DefaultMargin is the margin Tally is usually called with: one side must
// hold more than 60 % of the summed reliability, 1.5 times the other's,
// for a verdict other than contested. M-Eval asks for a side "markedly"
// stronger and gives no number; 1.5 times means, for instance, that one
// fresh RCT (0.98) against one fresh cohort study (0.73) is contested,
// while a meta-analysis (1.0) against a case report (0.24) is not.
const DefaultMargin = 0.2

// Tally is the outcome of weighing a claim's evidence.
type Tally struct {
	Support, Contradict float64 // summed reliability of each side
	Verdict             Verdict
}

// Weigh sums the reliability of the supporting and of the contradicting
// evidence (irrelevant evidence counts on neither side) and decides, with
// d = (Support - Contradict) / (Support + Contradict): supported when d >
// margin, contradicted when d < -margin, contested otherwise, and no
// evidence when both sums are 0. margin is in [0, 1); a reliability
// outside [0, 1] or a stance not among the three is an error.
func Weigh(items []Labelled, margin float64) (Tally, error) {
	if !(margin >= 0 && margin < 1) {
		return Tally{}, fmt.Errorf("%w: margin %v is not in [0, 1)", ErrInvalid, margin)
	}
	var t Tally
	for i, it := range items {
		if !(it.Reliability >= 0 && it.Reliability <= 1) {
			return Tally{}, fmt.Errorf("%w: item %d: reliability %v is not in [0, 1]", ErrInvalid, i, it.Reliability)
		}
		switch it.Stance {
		case Supports:
			t.Support += it.Reliability
		case Contradicts:
			t.Contradict += it.Reliability
		case Irrelevant:
		default:
			return Tally{}, fmt.Errorf("%w: item %d: unknown stance %d", ErrInvalid, i, it.Stance)
		}
	}
	total := t.Support + t.Contradict
	d := (t.Support - t.Contradict) / total
	switch {
	case total == 0:
		t.Verdict = NoEvidence
	case d > margin:
		t.Verdict = Supported
	case d < -margin:
		t.Verdict = Contradicted
	default:
		t.Verdict = Contested
	}
	return t, nil
}
