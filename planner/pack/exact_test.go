package pack

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// refUtility restates U = F * W * Sim * exp(-lambda*dt), Sim = R^p *
// ((1 - floor) * cos + floor * C / 20) (R^p = 1 for p = 0),
// with cos clamped to [0, 1], independently of the package's code.
func refUtility(c *Candidate, s *State, p Params, isB bool) float64 {
	f := 1.0
	if isB && c.NTotal > 0 {
		f = math.Min(1, float64(c.NEntity)/float64(c.NTotal)+p.Epsilon)
	}
	dt := 0.0
	if !c.Permanent && c.Day != base.NoDay && p.Now != base.NoDay && c.Day < p.Now {
		dt = float64(p.Now-c.Day) / 365.25
	}
	sim := (1 - p.SimFloor) * math.Min(1, math.Max(s.Sim, 0))
	sim += p.SimFloor * float64(s.Tokens) / 20
	if p.RelevancePower > 0 {
		sim *= math.Pow(c.Relevance, p.RelevancePower)
	}
	return f * p.Weights[c.Tier-1] * sim * math.Exp(-p.Lambda*dt)
}

// refInQuota restates which blocks the quota applies to: those at least
// half as relevant as the most relevant block.
func refInQuota(cands []Candidate) []bool {
	best := 0.0
	for _, c := range cands {
		best = math.Max(best, c.Relevance)
	}
	out := make([]bool, len(cands))
	for i, c := range cands {
		out[i] = c.Relevance >= 0.5*best
	}
	return out
}

// bruteForce enumerates every choice (none, A or B per block) and returns
// the lexicographic optimum: fewest unmet quota places, then most utility.
func bruteForce(cands []Candidate, p Params) (shortfall int, utility float64) {
	inQuota := refInQuota(cands)
	var present tierCounts
	for i := range cands {
		if inQuota[i] && (cands[i].A.Tokens > 0 || cands[i].B != nil && cands[i].B.Tokens > 0) {
			present[cands[i].Tier]++
		}
	}
	best, bestU := math.MaxInt, 0.0
	var got tierCounts
	var walk func(i, used int, u float64)
	walk = func(i, used int, u float64) {
		if i == len(cands) {
			short := 0
			for _, t := range base.Tiers {
				short += max(0, min(p.Kmin, present[t])-got[t])
			}
			if short < best || (short == best && u > bestU) {
				best, bestU = short, u
			}
			return
		}
		c := &cands[i]
		walk(i+1, used, u)
		try := func(s *State, isB bool) {
			if s.Tokens > 0 && used+s.Tokens <= p.Budget {
				if inQuota[i] {
					got[c.Tier]++
				}
				walk(i+1, used+s.Tokens, u+refUtility(c, s, p, isB))
				if inQuota[i] {
					got[c.Tier]--
				}
			}
		}
		try(&c.A, false)
		if c.B != nil {
			try(c.B, true)
		}
	}
	walk(0, 0, 0)
	return best, bestU
}

func shortfall(r *Result) int {
	n := 0
	for _, q := range r.Quota {
		n += max(0, q.Want-q.Got)
	}
	return n
}

func TestExactMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 600 {
		cands := randomCandidates(rng, rng.IntN(9))
		p := randomParams(rng)
		p.Budget = rng.IntN(60)
		p.Strategy = Exact
		r, err := Pack(cands, p)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, cands, p, r)
		wantShort, wantU := bruteForce(cands, p)
		if got := shortfall(r); got != wantShort || math.Abs(r.Utility-wantU) > 1e-9 {
			t.Fatalf("trial %d: exact gives shortfall %d utility %.12g, brute force %d %.12g", trial, got, r.Utility, wantShort, wantU)
		}
	}
}

// TestHeuristicsNeverBeatExact: no strategy choosing whole states can
// improve on the optimum in (quota shortfall, utility) order.
func TestHeuristicsNeverBeatExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	ratioSum, n := 0.0, 0
	for trial := range 300 {
		cands := randomCandidates(rng, 1+rng.IntN(60))
		p := randomParams(rng)
		p.Strategy = Exact
		opt, err := Pack(cands, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []Strategy{Ebm, FIFO, Semantic} {
			p.Strategy = s
			r, err := Pack(cands, p)
			if err != nil {
				t.Fatal(err)
			}
			if shortfall(r) < shortfall(opt) || (shortfall(r) == shortfall(opt) && r.Utility > opt.Utility+1e-9) {
				t.Fatalf("trial %d: %s (shortfall %d, utility %v) beats exact (%d, %v)", trial, s, shortfall(r), r.Utility, shortfall(opt), opt.Utility)
			}
			if s == Ebm && opt.Utility > 0 && shortfall(r) == shortfall(opt) {
				ratioSum += r.Utility / opt.Utility
				n++
			}
		}
	}
	t.Logf("ebm/exact utility ratio on random instances: mean %.4f over %d", ratioSum/float64(n), n)
}

func TestExactTooLarge(t *testing.T) {
	cands := make([]Candidate, 1000)
	for i := range cands {
		cands[i] = Candidate{ID: "x", Tier: base.T3, Day: base.NoDay, A: State{Tokens: 100, Sim: 0.5}}
	}
	p := DefaultParams()
	p.Budget = 1 << 16
	p.Strategy = Exact
	_, err := Pack(cands, p)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
	p.Strategy = Ebm
	if _, err := Pack(cands, p); err != nil {
		t.Fatalf("ebm on the same input: %v", err)
	}
}

// TestExactBudgetCappedByContent: a budget far above what the candidates
// can use is not refused, because the table only spans usable tokens.
func TestExactBudgetCappedByContent(t *testing.T) {
	cands := []Candidate{{ID: "a", Tier: base.T1, Day: base.NoDay, A: State{Text: "a b", Tokens: 2, Sim: 1}}}
	p := DefaultParams()
	p.Budget = 1 << 30
	p.Strategy = Exact
	r, err := Pack(cands, p)
	if err != nil || len(r.Items) != 1 {
		t.Fatalf("got %+v, %v", r, err)
	}
}
