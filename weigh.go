package medkb

import (
	"fmt"
	"slices"

	"github.com/medkb/medkb/internal/reliability"
)

// The stances a caller's judge (an NLI model, an LLM, a person) gives
// each item of a Result for a claim, as Result.Weigh takes them.
const (
	StanceSupports    = "supports"
	StanceContradicts = "contradicts"
	StanceIrrelevant  = "irrelevant"
)

// DefaultMargin is the margin of Result.Weigh's verdict: a side must hold
// more than 60 % of the summed reliability (docs/reliability.md).
const DefaultMargin = reliability.DefaultMargin

// Tally is the weighing of a claim's evidence (seed 002, M-Eval): the
// summed reliability of the items that support it and of those that
// contradict it, how many items of each side were labelled, and the
// verdict: "supported", "contradicted", "contested" or "no evidence".
type Tally struct {
	Support     float64  `json:"support"`
	Contradict  float64  `json:"contradict"`
	Supporting  int      `json:"supporting"`
	Opposing    int      `json:"opposing"`
	Verdict     string   `json:"verdict"`
	Unweighable []string `json:"unweighable,omitempty"`
}

// Weigh sums the reliability (Item.Reliability) of r's items per stance
// and decides the claim's verdict with the given margin (DefaultMargin,
// usually): supported when (Support - Contradict) / (Support +
// Contradict) > margin, contradicted when below -margin, contested in
// between, no evidence when both sums are 0. stances maps item ids
// (Item.ID) to StanceSupports, StanceContradicts or StanceIrrelevant; an
// unlabelled item is irrelevant. An item of no known study design (a
// record, a graph path) has reliability 0 and weighs nothing: it is
// listed in Unweighable when labelled for a side. A label for an id that
// is not an item, an unknown stance or a margin outside [0, 1) is an
// error. StanceJudge gets stances from a chat model (docs/stance.md).
func (r *Result) Weigh(stances map[string]string, margin float64) (Tally, error) {
	byID := make(map[string]Item, len(r.Items))
	for _, it := range r.Items {
		byID[it.ID] = it
	}
	var t Tally
	var labelled []reliability.Labelled
	for id, s := range stances {
		it, ok := byID[id]
		if !ok {
			return Tally{}, fmt.Errorf("medkb: weigh: %q is not an item of the result", id)
		}
		var st reliability.Stance
		switch s {
		case StanceSupports:
			st = reliability.Supports
			t.Supporting++
		case StanceContradicts:
			st = reliability.Contradicts
			t.Opposing++
		case StanceIrrelevant:
			continue
		default:
			return Tally{}, fmt.Errorf("medkb: weigh: item %s: unknown stance %q; use %s, %s or %s",
				id, s, StanceSupports, StanceContradicts, StanceIrrelevant)
		}
		if it.Reliability == 0 {
			t.Unweighable = append(t.Unweighable, id)
		}
		labelled = append(labelled, reliability.Labelled{Reliability: it.Reliability, Stance: st})
	}
	w, err := reliability.Weigh(labelled, margin)
	if err != nil {
		return Tally{}, err
	}
	t.Support, t.Contradict, t.Verdict = w.Support, w.Contradict, string(w.Verdict)
	slices.Sort(t.Unweighable)
	return t, nil
}
