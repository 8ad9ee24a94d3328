package pack

import (
	"errors"
	"math"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

func TestParseStrategy(t *testing.T) {
	for _, s := range Strategies {
		got, err := ParseStrategy(" " + s.String() + " ")
		if err != nil || got != s {
			t.Fatalf("ParseStrategy(%q) = %v, %v", s.String(), got, err)
		}
	}
	if got, err := ParseStrategy("EBM"); err != nil || got != Ebm {
		t.Fatalf("case-insensitive parse: %v, %v", got, err)
	}
	_, err := ParseStrategy("greedy")
	if !errors.Is(err, ErrInvalid) || err.Error() != `medkb: invalid packing input: unknown strategy "greedy" (want ebm, paper, exact, fifo, semantic, uniform)` {
		t.Fatalf("got %v", err)
	}
}

func FuzzParseStrategy(f *testing.F) {
	for _, s := range strategyNames {
		f.Add(s)
	}
	f.Add("Semantic ")
	f.Fuzz(func(t *testing.T, name string) {
		s, err := ParseStrategy(name)
		if err != nil {
			return
		}
		if again, err := ParseStrategy(s.String()); err != nil || again != s {
			t.Fatalf("%q parsed to %v, which does not round-trip", name, s)
		}
	})
}

func TestParamsRejected(t *testing.T) {
	ok := []Candidate{{ID: "a", Tier: base.T3, Day: base.NoDay, A: State{Text: "a", Tokens: 1, Sim: 0.5}}}
	for name, mutate := range map[string]func(p *Params){
		"negative budget":     func(p *Params) { p.Budget = -1 },
		"negative kmin":       func(p *Params) { p.Kmin = -2 },
		"NaN lambda":          func(p *Params) { p.Lambda = math.NaN() },
		"infinite epsilon":    func(p *Params) { p.Epsilon = math.Inf(1) },
		"negative weight":     func(p *Params) { p.Weights[2] = -1 },
		"unknown strategy":    func(p *Params) { p.Strategy = Uniform + 1 },
		"floor above 1":       func(p *Params) { p.SimFloor = 1.5 },
		"NaN floor":           func(p *Params) { p.SimFloor = math.NaN() },
		"uniform no count":    func(p *Params) { p.Strategy = Uniform; p.Count = nil },
		"reliability above 1": func(p *Params) { p.Reliability = 1.5 },
		"NaN reliability":     func(p *Params) { p.Reliability = math.NaN() },
	} {
		p := DefaultParams()
		mutate(&p)
		if _, err := Pack(ok, p); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		}
	}
	for name, c := range map[string]Candidate{
		"no tier":         {ID: "x", A: State{Tokens: 1}},
		"negative tokens": {ID: "x", Tier: base.T1, A: State{Tokens: -1}},
		"NaN sim":         {ID: "x", Tier: base.T1, A: State{Tokens: 1, Sim: math.NaN()}},
		"B on T4":         {ID: "x", Tier: base.T4, A: State{Tokens: 1}, B: &State{Tokens: 1}},
		"negative counts": {ID: "x", Tier: base.T2, A: State{Tokens: 1}, NEntity: -1},
		"reliability 2":   {ID: "x", Tier: base.T2, A: State{Tokens: 1}, Reliability: 2},
	} {
		if _, err := Pack([]Candidate{c}, DefaultParams()); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", name, err)
		}
	}
}

// TestZeroWeightsMeanDefault: an all-zero weight vector would make every
// utility zero, so it stands for DefaultWeights.
func TestZeroWeightsMeanDefault(t *testing.T) {
	cands := []Candidate{{ID: "a", Tier: base.T1, Day: base.NoDay, A: State{Text: "a", Tokens: 1, Sim: 0.5}}}
	p := DefaultParams()
	p.Weights, p.SimFloor = [4]float64{}, 0
	r, err := Pack(cands, p)
	if err != nil {
		t.Fatal(err)
	}
	if want := DefaultWeights[0] * 0.5; r.Utility != want {
		t.Fatalf("utility %v, want %v", r.Utility, want)
	}
}

// TestSimFloor checks Sim = R^p * ((1 - floor) * cos + floor * C / 20),
// cos clamped to [0, 1], C the state's own tokens: floor 0 is the bare
// cosine, floor 1 ignores the query, a state B earns no floor for the
// words it dropped, and relevance R scales it all as R^p (p 4; R^0 = 1
// without relevance).
func TestSimFloor(t *testing.T) {
	for _, tc := range []struct {
		floor, cos float64
		tokens     int
		onlyB      bool
		rel, want  float64
	}{
		{0, 0.4, 20, false, 0, 0.4},
		{0, -0.3, 20, false, 0, 0},
		{0.2, 0.5, 20, false, 0, 0.6},
		{0.2, 0.5, 40, false, 0, 0.8},
		{0.2, -0.5, 10, false, 0, 0.1},
		{0.2, 1.5, 20, false, 0, 1},
		{1, 0.1, 20, false, 0, 1},
		{0.5, 0, 40, true, 0, 0.1},        // B's own 4 tokens, not A's 40
		{0.5, 0.4, 40, false, 0.5, 0.075}, // 0.5^4 * (0.2 + 1)
		{0.5, 0.4, 40, false, 1, 1.2},
	} {
		c := Candidate{ID: "a", Tier: base.T4, Day: base.NoDay, Relevance: tc.rel, A: State{Text: "a", Tokens: tc.tokens, Sim: tc.cos}}
		if tc.onlyB {
			c.Tier = base.T1
			c.B = &State{Text: "b", Tokens: 4, Sim: tc.cos}
		}
		p := DefaultParams()
		p.Weights = [4]float64{1, 1, 1, 1}
		p.SimFloor = tc.floor
		if tc.rel > 0 {
			p.RelevancePower = QueryRelevancePower
		}
		p.Budget = tc.tokens
		if tc.onlyB {
			p.Budget = 4
		}
		r, err := Pack([]Candidate{c}, p)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Utility-tc.want) > 1e-12 {
			t.Errorf("floor %v cos %v tokens %d relevance %v: utility %v, want %v", tc.floor, tc.cos, tc.tokens, tc.rel, r.Utility, tc.want)
		}
	}
}

func TestDecayYears(t *testing.T) {
	now, _ := base.ParseDay("2026-01-01")
	p := Params{Lambda: 1, Now: now}
	for _, tc := range []struct {
		day  string
		want float64
	}{
		{"2026-01-01", 1},
		{"2030-01-01", 1}, // future: dt clamps to 0
		{"", 1},           // no day
		{"2016-01-01", math.Exp(-3653.0 / 365.25)},
	} {
		d, _ := base.ParseDay(tc.day)
		if got := decay(&p, d); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("decay(%q) = %v, want %v", tc.day, got, tc.want)
		}
	}
	p.Now = base.NoDay
	if got := decay(&p, 0); got != 1 {
		t.Errorf("decay without Now = %v, want 1", got)
	}
}

func TestFidelityB(t *testing.T) {
	for _, tc := range []struct {
		kept, total int
		eps, want   float64
	}{
		{2, 4, 0, 0.5},
		{2, 4, 0.1, 0.6},
		{4, 4, 0.2, 1},
		{0, 0, 0, 1}, // nothing countable to lose
		{5, 4, 0, 1}, // over-count clamps
	} {
		c := Candidate{NEntity: tc.kept, NTotal: tc.total}
		if got := fidelityB(&c, tc.eps); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("F(B) for %d/%d eps %v = %v, want %v", tc.kept, tc.total, tc.eps, got, tc.want)
		}
	}
}

// TestReliabilityWeight checks U scaled by 1 - w + w*r: w 0 ignores the
// block's reliability r, w 1 scales by r alone, and the planner's default
// leaves utility as it was.
func TestReliabilityWeight(t *testing.T) {
	for _, tc := range []struct{ w, r, want float64 }{
		{0, 0.2, 1},
		{1, 0.2, 0.2},
		{0.5, 0.2, 0.6},
		{0.5, 1, 1},
		{0.5, 0, 0.5},
	} {
		c := Candidate{ID: "a", Tier: base.T3, Day: base.NoDay, Reliability: tc.r, A: State{Text: "a", Tokens: 20, Sim: 1}}
		p := DefaultParams()
		p.Weights, p.SimFloor, p.Budget, p.Reliability = [4]float64{1, 1, 1, 1}, 0, 20, tc.w
		r, err := Pack([]Candidate{c}, p)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Utility-tc.want) > 1e-12 {
			t.Errorf("w %v r %v: utility %v, want %v", tc.w, tc.r, r.Utility, tc.want)
		}
	}
}
