package pack

import (
	"fmt"
	"math"
	"strings"

	"github.com/medkb/medkb/internal/base"
)

// Defaults for PACK parameters the query leaves out.
const (
	DefaultBudget  = 512
	DefaultKmin    = 1
	DefaultLambda  = 0.02 // per year: a ten-year-old record keeps e^-0.2, 82 %, of its utility
	DefaultEpsilon = 0.0
	// DefaultSimFloor is the share of a perfect match's utility that a
	// state of FloorTokens tokens keeps when it shares nothing with the
	// query (see Params.SimFloor).
	DefaultSimFloor = 0.5
	// QueryRelevancePower is the RelevancePower the planner packs with:
	// a block half as relevant as the best is worth a sixteenth as much
	// per token, so that relevance outweighs the tier weights' 2.5 unless
	// two blocks are within a fifth of each other's relevance (see sim).
	QueryRelevancePower = 4.0
)

// DefaultWeights are the tier weights W(T1..T4) the paper's grid search chose.
var DefaultWeights = [4]float64{2.5, 2.5, 1, 1}

// Params configures one packing. Start from DefaultParams; the zero value
// packs nothing (Budget 0).
type Params struct {
	// Budget is the token window W_max; 0 packs nothing.
	Budget int
	// Kmin is the tier quota: every tier present keeps at least
	// min(Kmin, blocks of that tier) blocks when the budget allows. 0
	// turns the quota off. Only Ebm and Exact enforce it.
	Kmin int
	// Weights are W(T1), W(T2), W(T3), W(T4). All zero means
	// DefaultWeights. The paper's order alpha >= beta >= gamma >= 1 is
	// not enforced here (ablations need other weights).
	Weights [4]float64
	// Lambda is the time-decay rate per year; 0 turns decay off.
	Lambda float64
	// Epsilon lifts the fidelity of state B: F(B) = min(1, kept/total + Epsilon).
	Epsilon float64
	// SimFloor turns a state's cosine to the query into the utility's
	// Sim: (1 - SimFloor) * cos + SimFloor * Tokens / FloorTokens, with
	// the state's cosine and tokens, cos clamped to [0, 1]. 0 is the bare
	// cosine; 1 ignores the query. In [0, 1].
	SimFloor float64
	// RelevancePower p weighs a block's relevance (Candidate.Relevance)
	// in its Sim: the floor's share becomes SimFloor * Relevance^p *
	// Tokens / FloorTokens. 0 ignores relevance (the paper's Sim, and the
	// RRCE benchmark's, whose candidates have no retrieval signals).
	// Finite, >= 0.
	RelevancePower float64
	// Reliability w weighs a block's evidence reliability
	// (Candidate.Reliability, r) in its utility, which is multiplied by
	// 1 - w + w*r: 0 (the default) ignores it, 1 scales utility by r
	// alone. In [0, 1].
	Reliability float64
	// Now is the reference day for time decay; base.NoDay turns decay off.
	Now base.Day
	// Strategy selects the algorithm; the zero value is Ebm.
	Strategy Strategy
	// Count(i, text) is what block i's state A costs cut down to text,
	// counted the way the caller counted State.Tokens (with whatever the
	// caller adds to every block, such as a citation line). Only Uniform
	// needs it, to cost the text it cuts.
	Count func(block int, text string) int
}

// DefaultParams returns the documented defaults, with no time decay until
// the caller sets Now.
func DefaultParams() Params {
	return Params{
		Budget:   DefaultBudget,
		Kmin:     DefaultKmin,
		Weights:  DefaultWeights,
		Lambda:   DefaultLambda,
		Epsilon:  DefaultEpsilon,
		SimFloor: DefaultSimFloor,
		Now:      base.NoDay,
	}
}

// weight returns W(t) with the all-zero default applied.
func (p *Params) weight(t base.Tier) float64 {
	if p.Weights == [4]float64{} {
		return DefaultWeights[t-1]
	}
	return p.Weights[t-1]
}

func (p *Params) validate() error {
	switch {
	case p.Budget < 0:
		return fmt.Errorf("%w: budget %d is negative", ErrInvalid, p.Budget)
	case p.Kmin < 0:
		return fmt.Errorf("%w: kmin %d is negative", ErrInvalid, p.Kmin)
	case !finiteNonNegative(p.Lambda):
		return fmt.Errorf("%w: lambda %v must be a finite number >= 0", ErrInvalid, p.Lambda)
	case !finiteNonNegative(p.Epsilon):
		return fmt.Errorf("%w: epsilon %v must be a finite number >= 0", ErrInvalid, p.Epsilon)
	case !finiteNonNegative(p.RelevancePower):
		return fmt.Errorf("%w: relevance power %v must be a finite number >= 0", ErrInvalid, p.RelevancePower)
	case !(p.SimFloor >= 0 && p.SimFloor <= 1):
		return fmt.Errorf("%w: similarity floor %v must be in [0, 1]", ErrInvalid, p.SimFloor)
	case !(p.Reliability >= 0 && p.Reliability <= 1):
		return fmt.Errorf("%w: reliability weight %v must be in [0, 1]", ErrInvalid, p.Reliability)
	case int(p.Strategy) >= len(strategyNames):
		return fmt.Errorf("%w: unknown strategy %d", ErrInvalid, p.Strategy)
	case p.Strategy == Uniform && p.Count == nil:
		return fmt.Errorf("%w: strategy uniform needs Params.Count to cost the text it cuts", ErrInvalid)
	}
	for i, w := range p.Weights {
		if !finiteNonNegative(w) {
			return fmt.Errorf("%w: weight of T%d is %v, want a finite number >= 0", ErrInvalid, i+1, w)
		}
	}
	return nil
}

func finiteNonNegative(x float64) bool { return x >= 0 && !math.IsInf(x, 1) }

// Strategy is a packing algorithm.
type Strategy uint8

// The strategies: the paper's greedy with medkb's additions, the paper's
// greedy as published, the exact optimum, and the paper's three
// baselines.
const (
	Ebm      Strategy = iota // density greedy with tier quota and state B
	Paper                    // Ebm without medkb's additions: quota pass, then density walk
	Exact                    // optimal multiple-choice knapsack by dynamic programming
	FIFO                     // input order, state A, until the first block that does not fit
	Semantic                 // similarity order, state A, same stopping rule as FIFO
	Uniform                  // every block cut to the same share of its words
)

// Strategies lists every strategy in declaration order.
var Strategies = [...]Strategy{Ebm, Paper, Exact, FIFO, Semantic, Uniform}

// strategyNames are the strategies' names in the query language, which
// takes them from here (StrategyNames).
var strategyNames = [...]string{"ebm", "paper", "exact", "fifo", "semantic", "uniform"}

// StrategyNames lists the strategies' names in declaration order, the
// order messages name them.
func StrategyNames() []string { return append([]string(nil), strategyNames[:]...) }

// String returns the strategy's name in the query language.
func (s Strategy) String() string {
	if int(s) < len(strategyNames) {
		return strategyNames[s]
	}
	return fmt.Sprintf("strategy(%d)", uint8(s))
}

// ParseStrategy reads a strategy name (case-insensitive).
func ParseStrategy(name string) (Strategy, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	for i, n := range strategyNames {
		if n == key {
			return Strategy(i), nil
		}
	}
	return Ebm, fmt.Errorf("%w: unknown strategy %q (want %s)", ErrInvalid, name, strings.Join(strategyNames[:], ", "))
}

// MarshalText implements encoding.TextMarshaler.
func (s Strategy) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Strategy) UnmarshalText(b []byte) error {
	v, err := ParseStrategy(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}
