package pack

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// checkInvariants asserts what every packing promises, whatever the
// strategy: the budget holds, each candidate is in Items or Dropped
// exactly once, items are in reading order, states and totals are
// consistent, and the quota accounting matches the items.
func checkInvariants(t testing.TB, cands []Candidate, p Params, r *Result) {
	t.Helper()
	if r.TokensUsed > p.Budget {
		t.Fatalf("%s: used %d tokens of budget %d", p.Strategy, r.TokensUsed, p.Budget)
	}
	inQuota := refInQuota(cands)
	seen := make([]int, len(cands))
	tokens, utility := 0, 0.0
	var got tierCounts
	for _, it := range r.Items {
		seen[it.Index]++
		c := &cands[it.Index]
		tokens += it.Tokens
		utility += it.Utility
		if inQuota[it.Index] {
			got[c.Tier]++
		}
		if it.ID != c.ID || it.Tier != c.Tier || it.Day != c.Day {
			t.Fatalf("%s: item %d does not describe candidate %q", p.Strategy, it.Index, c.ID)
		}
		if it.Tokens <= 0 {
			t.Fatalf("%s: item %q has %d tokens", p.Strategy, it.ID, it.Tokens)
		}
		switch {
		case it.State == StateB && c.B == nil:
			t.Fatalf("%s: item %q packed state B it does not have", p.Strategy, it.ID)
		case it.State == StateB && (it.Tokens != c.B.Tokens || it.Text != c.B.Text):
			t.Fatalf("%s: item %q state B tokens/text differ from the candidate's", p.Strategy, it.ID)
		case it.State == StateA && p.Strategy != Uniform && (it.Tokens != c.A.Tokens || it.Text != c.A.Text):
			t.Fatalf("%s: item %q state A tokens/text differ from the candidate's", p.Strategy, it.ID)
		case it.State == StateA && p.Strategy == Uniform && !strings.HasPrefix(strings.TrimSpace(c.A.Text), it.Text):
			t.Fatalf("uniform: item %q text %q is not a prefix of %q", it.ID, it.Text, c.A.Text)
		case it.State != StateA && it.State != StateB:
			t.Fatalf("%s: item %q has state %q", p.Strategy, it.ID, it.State)
		}
		if it.Utility < 0 || math.IsNaN(it.Utility) {
			t.Fatalf("%s: item %q has utility %v", p.Strategy, it.ID, it.Utility)
		}
	}
	// What Ebm's reasons mean: ReasonBudget, no state fits the budget;
	// ReasonQuota, the block fits in the tokens left plus those of the
	// quota picks less dense than it; ReasonLowerDensity, it does not.
	left := p.Budget - r.TokensUsed
	for _, d := range r.Dropped {
		seen[d.Index]++
		c := &cands[d.Index]
		if d.Tier != c.Tier || d.Reason == ReasonNone {
			t.Fatalf("%s: drop %d (%q) is malformed: %+v", p.Strategy, d.Index, c.ID, d)
		}
		if p.Strategy != Ebm && p.Strategy != Paper {
			continue
		}
		cheapest := math.MaxInt
		for _, s := range []*State{&c.A, c.B} {
			if s != nil && s.Tokens > 0 {
				cheapest = min(cheapest, s.Tokens)
			}
		}
		freed := 0
		for _, it := range r.Items {
			if it.Why == WhyQuota && it.Density < d.Density {
				freed += it.Tokens
			}
		}
		if cheapest <= left {
			t.Fatalf("ebm: dropped %q (%d tokens) with %d tokens left", c.ID, cheapest, left)
		}
		fits := cheapest <= p.Budget
		quota := fits && freed > 0 && cheapest <= left+freed
		if d.Reason == ReasonBudget && fits || d.Reason == ReasonQuota && !quota || d.Reason == ReasonLowerDensity && (!fits || quota) {
			t.Fatalf("ebm: drop %q for %s, but fits the budget %t, %d tokens, %d left, %d in less dense quota picks",
				c.ID, d.Reason, fits, cheapest, left, freed)
		}
	}
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("%s: candidate %d (%q) appears %d times in items and drops", p.Strategy, i, cands[i].ID, n)
		}
	}
	if tokens != r.TokensUsed || math.Abs(utility-r.Utility) > 1e-9*(1+utility) {
		t.Fatalf("%s: totals %d/%v, items sum to %d/%v", p.Strategy, r.TokensUsed, r.Utility, tokens, utility)
	}
	inReadingOrder := slices.IsSortedFunc(r.Items, func(x, y Item) int {
		return readingCmp(&cands[x.Index], &cands[y.Index], x.Index, y.Index)
	})
	if !inReadingOrder {
		t.Fatalf("%s: items are not in reading order", p.Strategy)
	}
	if !slices.IsSortedFunc(r.Dropped, func(x, y Drop) int { return x.Index - y.Index }) {
		t.Fatalf("%s: drops are not in candidate order", p.Strategy)
	}
	var present tierCounts
	for i := range cands {
		if inQuota[i] && (cands[i].A.Tokens > 0 || cands[i].B != nil && cands[i].B.Tokens > 0) {
			present[cands[i].Tier]++
		}
	}
	met := true
	k := 0
	for _, tier := range base.Tiers {
		if present[tier] == 0 {
			continue
		}
		q := r.Quota[k]
		k++
		want := min(p.Kmin, present[tier])
		if q.Tier != tier || q.Present != present[tier] || q.Want != want || q.Got != got[tier] || q.Met != (got[tier] >= want) {
			t.Fatalf("%s: quota %+v, want tier %s present %d want %d got %d", p.Strategy, q, tier, present[tier], want, got[tier])
		}
		met = met && q.Met
	}
	if k != len(r.Quota) || met != r.QuotaMet {
		t.Fatalf("%s: quota list %+v / met %v inconsistent", p.Strategy, r.Quota, r.QuotaMet)
	}
}

// randomCandidates makes n blocks with varied tiers, sizes, similarities
// (some negative), dates (some missing or in the future) and states B.
func randomCandidates(rng *rand.Rand, n int) []Candidate {
	words := []string{"creatinine", "2.8", "mg/dL", "biopsy", "positive", "no", "fever", "患者", "青霉素过敏", "CT", "8", "mm", "cough"}
	text := func(k int) string {
		parts := make([]string, k)
		for i := range parts {
			parts[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(parts, " ")
	}
	cands := make([]Candidate, n)
	for i := range cands {
		c := Candidate{ID: "c" + string(rune('a'+i%26)) + string(rune('0'+i/26%10)), Tier: base.Tiers[rng.IntN(4)], Rank: rng.IntN(n + 1),
			Relevance: rng.Float64(), Permanent: rng.IntN(6) == 0}
		c.Day = base.NoDay
		if rng.IntN(3) > 0 {
			c.Day = base.Day(18000 + rng.IntN(3000))
		}
		a := text(rng.IntN(30))
		c.A = State{Text: a, Tokens: countTokens(a), Sim: rng.Float64()*1.2 - 0.2}
		if (c.Tier == base.T1 || c.Tier == base.T2) && rng.IntN(4) > 0 {
			b := text(rng.IntN(8))
			c.B = &State{Text: b, Tokens: countTokens(b), Sim: rng.Float64()}
			c.NTotal = rng.IntN(5)
			c.NEntity = rng.IntN(c.NTotal + 1)
		}
		cands[i] = c
	}
	return cands
}

func randomParams(rng *rand.Rand) Params {
	p := DefaultParams()
	p.Budget = rng.IntN(120)
	p.Kmin = rng.IntN(4)
	p.Lambda = []float64{0, 0.1, 1, 5}[rng.IntN(4)]
	p.Epsilon = []float64{0, 0.05, 0.2}[rng.IntN(3)]
	p.Now = base.Day(19500 + rng.IntN(2000))
	p.RelevancePower = []float64{0, QueryRelevancePower}[rng.IntN(2)]
	p.Count = countBlockTokens
	return p
}

func TestRandomInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 400 {
		cands := randomCandidates(rng, rng.IntN(40))
		p := randomParams(rng)
		for _, s := range Strategies {
			p.Strategy = s
			r, err := Pack(cands, p)
			if err != nil {
				t.Fatalf("trial %d %s: %v", trial, s, err)
			}
			checkInvariants(t, cands, p, r)
		}
	}
}

// TestPackDoesNotModifyInput guards the promise that Pack only reads cands.
func TestPackDoesNotModifyInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cands := randomCandidates(rng, 30)
	before := slices.Clone(cands)
	p := randomParams(rng)
	for _, s := range Strategies {
		p.Strategy = s
		if _, err := Pack(cands, p); err != nil {
			t.Fatal(err)
		}
	}
	for i := range cands {
		if cands[i].ID != before[i].ID || cands[i].A != before[i].A || cands[i].B != before[i].B || cands[i].Rank != before[i].Rank {
			t.Fatalf("candidate %d changed", i)
		}
	}
}
