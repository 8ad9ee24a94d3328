package packbench

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/medkb/medkb/internal/text"
	"github.com/medkb/medkb/planner/pack"
)

// Config says what to measure.
type Config struct {
	// Windows are the budgets, in tokens; nil means DefaultWindows.
	Windows []int
	// Strategies to compare; nil means all five.
	Strategies []pack.Strategy
	// Params are the packing parameters; Budget, Strategy, Now and Count
	// are set per run. Start from pack.DefaultParams.
	Params pack.Params
	// KminValues are the k_min of the ablation (Ebm at AblationWindow);
	// nil means 0, 1, 2, 3.
	KminValues []int
	// AblationWindow is the budget of the k_min ablation; 0 means 512.
	AblationWindow int
}

// DefaultWindows are the paper's budgets.
var DefaultWindows = []int{256, 512, 1024, 2048}

// DefaultConfig is the paper's experiment with medkb's default parameters.
func DefaultConfig() Config {
	return Config{Params: pack.DefaultParams()}
}

// Report is the benchmark's result. RRCE values are fractions (0..1),
// keyed by strategy name and then by window ("256"). A value that counts
// nothing (no T1/T2 signal segment, or Exact refused every case at the
// window) is left out rather than reported as 0.
type Report struct {
	Cases               int                           `json:"cases"`
	RRCE                map[string]map[string]float64 `json:"rrce"`
	UtilityRatioVsExact *float64                      `json:"utility_ratio_vs_exact"` // Ebm's; nil (null) when Exact solved no pair
	// PaperUtilityRatioVsExact is the same for the paper's greedy as
	// published (pack.Paper), when it ran.
	PaperUtilityRatioVsExact *float64           `json:"paper_utility_ratio_vs_exact,omitempty"`
	KminAblation             map[string]float64 `json:"kmin_ablation"`
	// AblationWindow is the budget of the k_min ablation.
	AblationWindow int `json:"kmin_ablation_window"`
	// ExactRefused counts, per window, the cases where Exact refused
	// (pack.ErrTooLarge); they are left out of Exact's RRCE at that
	// window and of the utility ratio. RatioPairs counts the (case,
	// window) pairs the ratio averages.
	ExactRefused map[string]int `json:"exact_refused,omitempty"`
	RatioPairs   int            `json:"ratio_pairs"`
	// Signals is the RRCE denominator: T1/T2 signal segments over all cases.
	Signals    int      `json:"t1t2_signals"`
	Candidates int      `json:"candidates"` // over all cases, noise included
	Windows    []int    `json:"windows"`
	Strategies []string `json:"strategies"`
	KminValues []int    `json:"kmin_values"`
	// Losses lists the segments one strategy lost at one window, when the
	// caller asks (Suite.Losses); nil, and left out of JSON, otherwise.
	Losses *Losses `json:"losses,omitempty"`
	// Answers is the answer-accuracy harness's report, when asked (bench
	// pack --llm); nil, and left out of JSON, otherwise.
	Answers *AnswerReport `json:"answers,omitempty"`
}

// caseResult is one case's counts, reduced in case order so that sums
// do not depend on scheduling.
type caseResult struct {
	survived [][]int    // [strategy][window]
	judged   [][]int    // T1/T2 signals per [strategy][window] (0 where Exact refused)
	refused  []bool     // per window: Exact refused
	ratioSum [2]float64 // Ebm's and Paper's utility over Exact's, summed (greedyIndex)
	ratioN   [2]int
	ablation []int
	err      error
}

// Run packs every case at every window with every strategy and reports
// RRCE, Ebm's utility relative to Exact's, and the k_min ablation.
func (s *Suite) Run(cfg Config) (*Report, error) {
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	results := make([]caseResult, len(s.cases))
	packers := make([]pack.Packer, workers())
	parallel(len(s.cases), func(w, i int) {
		results[i] = s.runCase(&packers[w], &s.cases[i], &cfg)
	})

	r := &Report{
		Cases:          len(s.cases),
		RRCE:           map[string]map[string]float64{},
		KminAblation:   map[string]float64{},
		AblationWindow: cfg.AblationWindow,
		Windows:        cfg.Windows,
		KminValues:     cfg.KminValues,
	}
	survived := grid(len(cfg.Strategies), len(cfg.Windows))
	judged := grid(len(cfg.Strategies), len(cfg.Windows))
	ablation := make([]int, len(cfg.KminValues))
	var ratioSum [2]float64
	var ratioN [2]int
	for i, cr := range results {
		if cr.err != nil {
			return nil, cr.err
		}
		for si := range cfg.Strategies {
			for wi := range cfg.Windows {
				survived[si][wi] += cr.survived[si][wi]
				judged[si][wi] += cr.judged[si][wi]
			}
		}
		for k := range ablation {
			ablation[k] += cr.ablation[k]
		}
		for wi, refused := range cr.refused {
			if refused {
				if r.ExactRefused == nil {
					r.ExactRefused = map[string]int{}
				}
				r.ExactRefused[strconv.Itoa(cfg.Windows[wi])]++
			}
		}
		for g := range ratioSum {
			ratioSum[g] += cr.ratioSum[g]
			ratioN[g] += cr.ratioN[g]
		}
		r.Candidates += len(s.cases[i].cands)
		r.Signals += countT1T2(&s.cases[i])
	}
	for si, st := range cfg.Strategies {
		r.Strategies = append(r.Strategies, st.String())
		row := map[string]float64{}
		for wi, w := range cfg.Windows {
			if judged[si][wi] > 0 {
				row[strconv.Itoa(w)] = fraction(survived[si][wi], judged[si][wi])
			}
		}
		r.RRCE[st.String()] = row
	}
	for k, kmin := range cfg.KminValues {
		if r.Signals > 0 {
			r.KminAblation[strconv.Itoa(kmin)] = fraction(ablation[k], r.Signals)
		}
	}
	r.RatioPairs = ratioN[0]
	r.UtilityRatioVsExact = mean(ratioSum[0], ratioN[0])
	r.PaperUtilityRatioVsExact = mean(ratioSum[1], ratioN[1])
	return r, nil
}

// mean is sum/n, or nil when n is 0.
func mean(sum float64, n int) *float64 {
	if n == 0 {
		return nil
	}
	m := sum / float64(n)
	return &m
}

// greedyIndex is the index of Ebm (0) and Paper (1) in caseResult's
// ratios, -1 for other strategies.
func greedyIndex(st pack.Strategy) int {
	switch st {
	case pack.Ebm:
		return 0
	case pack.Paper:
		return 1
	}
	return -1
}

// SortWindows returns the windows sorted, or an error naming one that is
// not a positive number of tokens or is given twice.
func SortWindows(windows []int) ([]int, error) {
	sorted := slices.Sorted(slices.Values(windows))
	for i, w := range sorted {
		if w < 1 {
			return nil, fmt.Errorf("window %d is not a positive number of tokens", w)
		}
		if i > 0 && sorted[i-1] == w {
			return nil, fmt.Errorf("window %d given twice", w)
		}
	}
	return sorted, nil
}

// fill sets the defaults, and sorts the windows: the table's columns and
// the plot's line go from the smallest.
func (cfg *Config) fill() error {
	if cfg.Windows == nil {
		cfg.Windows = DefaultWindows
	}
	var err error
	if cfg.Windows, err = SortWindows(cfg.Windows); err != nil {
		return err
	}
	if cfg.Strategies == nil {
		cfg.Strategies = pack.Strategies[:]
	}
	if cfg.KminValues == nil {
		cfg.KminValues = []int{0, 1, 2, 3}
	}
	if cfg.AblationWindow == 0 {
		cfg.AblationWindow = 512
	}
	return nil
}

func (s *Suite) runCase(pk *pack.Packer, c *prepared, cfg *Config) caseResult {
	cr := caseResult{
		survived: grid(len(cfg.Strategies), len(cfg.Windows)),
		judged:   grid(len(cfg.Strategies), len(cfg.Windows)),
		ablation: make([]int, len(cfg.KminValues)),
		refused:  make([]bool, len(cfg.Windows)),
	}
	p := cfg.Params
	p.Now, p.Count = c.now, s.count
	nT1T2 := countT1T2(c)
	for wi, w := range cfg.Windows {
		p.Budget = w
		var util [2]float64
		var have [2]bool
		exactU, haveExact := 0.0, false
		for si, st := range cfg.Strategies {
			p.Strategy = st
			res, err := pk.Pack(c.cands, p)
			if st == pack.Exact && errors.Is(err, pack.ErrTooLarge) {
				cr.refused[wi] = true
				continue
			}
			if err != nil {
				cr.err = err
				return cr
			}
			cr.survived[si][wi], _ = survivors(res, c)
			cr.judged[si][wi] = nT1T2
			if g := greedyIndex(st); g >= 0 {
				util[g], have[g] = res.Utility, true
			}
			if st == pack.Exact {
				exactU, haveExact = res.Utility, true
			}
		}
		for g := range util {
			if have[g] && haveExact && exactU > 0 {
				cr.ratioSum[g] += util[g] / exactU
				cr.ratioN[g]++
			}
		}
	}
	p.Budget, p.Strategy = cfg.AblationWindow, pack.Ebm
	for k, kmin := range cfg.KminValues {
		p.Kmin = kmin
		res, err := pk.Pack(c.cands, p)
		if err != nil {
			cr.err = err
			return cr
		}
		cr.ablation[k], _ = survivors(res, c)
	}
	return cr
}

// survivors counts the case's T1/T2 signal segments, and all its signal
// segments, that survive: packed, in a state whose text holds every one
// of the segment's keys (a segment without keys survives when packed).
// Keys are looked for in the segment's own packed text, not anywhere in
// the context, so a value that happens to appear in another block does
// not count; both sides are folded (text.FoldKey), so "2.8mg/dL" holds the key
// "2.8 mg/dL".
func survivors(res *pack.Result, c *prepared) (t1t2, all int) {
	state, packed := packedStates(res, len(c.cands))
	for _, sg := range c.signal {
		if !slices.ContainsFunc(append([]int{sg.cand}, sg.copies...), func(k int) bool {
			return state[k] != 0 && containsAll(packed[k], sg.keys)
		}) {
			continue
		}
		all++
		if sg.t1t2() {
			t1t2++
		}
	}
	return t1t2, all
}

// packedStates gives, per candidate, the state the packing took (0 for
// none) and that state's text, folded (text.FoldKey).
func packedStates(res *pack.Result, n int) ([]pack.StateID, []string) {
	state, packed := make([]pack.StateID, n), make([]string, n)
	for _, it := range res.Items {
		state[it.Index], packed[it.Index] = it.State, text.FoldKey(it.Text)
	}
	return state, packed
}

func containsAll(s string, keys []string) bool {
	for _, k := range keys {
		if !strings.Contains(s, k) {
			return false
		}
	}
	return true
}

func countT1T2(c *prepared) int {
	n := 0
	for _, sg := range c.signal {
		if sg.t1t2() {
			n++
		}
	}
	return n
}

func grid(rows, cols int) [][]int {
	g := make([][]int, rows)
	for i := range g {
		g[i] = make([]int, cols)
	}
	return g
}

func fraction(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}
