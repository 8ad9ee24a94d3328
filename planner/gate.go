package planner

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/gate"
)

// GateNode is the completeness gate (GATE) with its thresholds bound.
type GateNode struct {
	Theta1, Theta2 float64
}

// Gate is the completeness gate's reading of the query text (GATE; see
// package internal/gate): each sentence labelled A (critical for
// diagnosis), B (helps retrieval) or C, the completeness score I, and
// the decision. Retrieved is false only when the gate answered without
// retrieval.
type Gate struct {
	Score     float64        `json:"score"`
	Theta1    float64        `json:"theta1"`
	Theta2    float64        `json:"theta2"`
	Decision  string         `json:"decision"` // "answer", "retrieve" or "warn"
	Retrieved bool           `json:"retrieved"`
	Note      string         `json:"note"`
	Sentences []GateSentence `json:"sentences"`
}

// GateSentence is one sentence of the query with its label ("A", "B" or
// "C") and the rule that gave it.
type GateSentence struct {
	Text  string `json:"text"`
	Label string `json:"label"`
	Why   string `json:"why"`
}

// readGate labels the query's sentences against what the store knows
// (see names) and scores them with GATE's thresholds, or the defaults
// without GATE (docvote reads only the labels); once an execution, since
// GATE and docvote both need it and names costs an index read a
// sentence.
func (x *execution) readGate(ctx context.Context) (*gate.Report, error) {
	if x.gateRead != nil {
		return x.gateRead, nil
	}
	theta1, theta2 := gate.DefaultTheta1, gate.DefaultTheta2
	if n := x.p.Gate; n != nil {
		theta1, theta2 = n.Theta1, n.Theta2
	}
	names, err := x.names(ctx)
	if err != nil {
		return nil, err
	}
	r := gate.Read(x.p.Query.Text, names, theta1, theta2)
	x.gateRead = &r
	return x.gateRead, nil
}

// names counts what a sentence names that the store knows: entities of
// every type of the graph (when the plan was bound to one), leaving out
// one-character mentions (gate.LongEnough), and domain terms, the terms
// BM25 finds in at most domainDF of the store's chunks (as entity
// density counts them). A sentence the index cannot analyse names no
// term.
func (x *execution) names(ctx context.Context) (gate.Names, error) {
	g := x.p.graph
	var types []string
	if g != nil {
		types = g.Types()
		// Build every type's automaton now, under ctx, so that
		// counting below cannot wait: a call under an ended context
		// starts a type's build and returns, so the builds run side by
		// side before the calls under ctx wait for each.
		started, cancel := context.WithCancel(ctx)
		cancel()
		for _, t := range types {
			g.LinkContext(started, "", t)
		}
		for _, t := range types {
			if _, err := g.LinkContext(ctx, "", t); err != nil {
				return nil, err
			}
		}
	}
	return func(s string) (int, string) {
		entities := 0
		for _, t := range types {
			for _, a := range g.Link(s, t) {
				if gate.LongEnough(a.Mention) {
					entities++
				}
			}
		}
		domain := 0
		if terms, n, err := x.env.BM25.QueryTerms(ctx, s); err == nil {
			for _, t := range terms {
				if isDomainTerm(t.DF, n) {
					domain++
				}
			}
		}
		var what []string
		if entities > 0 {
			what = append(what, fmt.Sprintf("%d graph entit%s", entities, plural(entities, "y", "ies")))
		}
		if domain > 0 {
			what = append(what, fmt.Sprintf("%d store term%s", domain, plural(domain, "", "s")))
		}
		return entities + domain, strings.Join(what, ", ")
	}, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// runGate reads the query text and decides; it reports whether retrieval
// is to be skipped. It never skips when the query reads a patient's
// record: the record is not in the query text, however complete the
// text is, and an allergy in it must still reach the context.
func (x *execution) runGate(ctx context.Context) (skip bool, err error) {
	start := time.Now()
	r, err := x.readGate(ctx)
	if err != nil {
		return false, err
	}
	g := &Gate{Score: r.Score, Theta1: r.Theta1, Theta2: r.Theta2, Decision: r.Decision, Retrieved: true,
		Sentences: make([]GateSentence, len(r.Units))}
	for i, u := range r.Units {
		g.Sentences[i] = GateSentence(u)
	}
	switch {
	case r.Decision == gate.Answer && x.p.readsRecord():
		g.Note = fmt.Sprintf("the text is complete (I %.2f >= theta1 %g), but the query reads a patient's record, which the text does not hold: retrieved", r.Score, r.Theta1)
	case r.Decision == gate.Answer:
		g.Retrieved = false
		g.Note = fmt.Sprintf("the text is complete (I %.2f >= theta1 %g): answer without retrieval", r.Score, r.Theta1)
	case r.Decision == gate.Warn:
		g.Note = fmt.Sprintf("critical information is sparse (I %.2f < theta2 %g): retrieved; an answer risks misdiagnosis", r.Score, r.Theta2)
	default:
		g.Note = fmt.Sprintf("retrieve (theta2 %g <= I %.2f < theta1 %g)", r.Theta2, r.Score, r.Theta1)
	}
	x.res.Gate = g
	labels := make([]string, len(r.Units))
	for i, u := range r.Units {
		labels[i] = u.Label
	}
	x.report(opGate, len(r.Units), len(r.Queries(x.p.Query.Text)), start, r.Summary()+"; labels "+strings.Join(labels, " "))
	return !g.Retrieved, nil
}

// skipped fills in the result of a query the gate answered without
// retrieval: nothing retrieved, every stage saying why.
func (x *execution) skipped() {
	why := "not run: the completeness gate answered without retrieval"
	x.res.Relevance.Mode, x.res.Relevance.Note = "none", why
	x.res.Expansion.Reason = why
	if x.p.Pack != nil {
		x.res.Budget = x.p.Pack.Params.Budget
	}
}

// readsRecord reports whether a WHERE condition names patients.
func (p *Plan) readsRecord() bool {
	for _, c := range p.Query.Filter {
		if c.Field == base.FieldPatient {
			return true
		}
	}
	return false
}
