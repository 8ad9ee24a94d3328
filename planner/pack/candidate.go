package pack

import (
	"fmt"
	"math"

	"github.com/medkb/medkb/internal/base"
)

// State is one packable form of a block: its text, its cost and its
// similarity to the query.
type State struct {
	Text string
	// Tokens is the cost C. A state with 0 tokens is never packed.
	Tokens int
	// Sim is cosine(query, this state's vector), computed by the caller.
	// The utility's Sim is (1 - SimFloor) * Sim + SimFloor * Tokens /
	// FloorTokens, with Sim clamped to [0, 1].
	Sim float64
}

// Candidate is one feature block q_i: a retrieved chunk with its tier,
// time and states.
type Candidate struct {
	ID   string    // chunk id, e.g. "P001-path-03#0"
	Tier base.Tier // T1..T4
	Day  base.Day  // base.NoDay when unknown (no decay)
	A    State     // full text, always present
	// B is the fidelity-preserving compression; T1 and T2 only, nil otherwise.
	B *State
	// NEntity of the NTotal key entities of A survive in B:
	// F(B) = min(1, NEntity/NTotal + Epsilon), and F(B) = 1 when NTotal
	// is 0 (there was nothing countable to lose).
	NEntity, NTotal int
	// Permanent spares the block time decay: an allergy or a genetic
	// result does not age (clinical.Reason.Permanent).
	Permanent bool
	// Relevance, in [0, 1], is how well the block answers the query by
	// every retrieval signal (the planner's relevance: BM25 coverage,
	// vector cosine, graph support). With Params.RelevancePower p > 0 it
	// scales the floor's share of Sim by Relevance^p (see sim), and the
	// tier quota covers only blocks at least QuotaRelevance as relevant
	// as the most relevant one.
	Relevance float64
	// Reliability, in [0, 1], is the block's evidence reliability
	// (internal/reliability): its document's study design and age. It
	// counts only with Params.Reliability > 0.
	Reliability float64
	// Rank is the input (fused) order, 0-based: FIFO's order and the
	// last tie-breaker before ID.
	Rank int
}

func (c *Candidate) validate(i int) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: candidate %d (%q): %s", ErrInvalid, i, c.ID, fmt.Sprintf(format, args...))
	}
	switch {
	case !c.Tier.Valid():
		return bad("tier %d is not one of T1..T4", c.Tier)
	case c.A.Tokens < 0 || c.A.Tokens > math.MaxInt32:
		return bad("state A has %d tokens", c.A.Tokens)
	case math.IsNaN(c.A.Sim) || math.IsInf(c.A.Sim, 0):
		return bad("state A similarity is %v", c.A.Sim)
	case !(c.Relevance >= 0 && c.Relevance <= 1):
		return bad("relevance %v is not in [0, 1]", c.Relevance)
	case !(c.Reliability >= 0 && c.Reliability <= 1):
		return bad("reliability %v is not in [0, 1]", c.Reliability)
	case c.NEntity < 0 || c.NTotal < 0:
		return bad("entity counts %d/%d are negative", c.NEntity, c.NTotal)
	}
	if c.B == nil {
		return nil
	}
	switch {
	case c.Tier != base.T1 && c.Tier != base.T2:
		return bad("state B given for a %s block (only T1 and T2 have one)", c.Tier)
	case c.B.Tokens < 0 || c.B.Tokens > math.MaxInt32:
		return bad("state B has %d tokens", c.B.Tokens)
	case math.IsNaN(c.B.Sim) || math.IsInf(c.B.Sim, 0):
		return bad("state B similarity is %v", c.B.Sim)
	}
	return nil
}
