package packbench

import "github.com/medkb/medkb/planner/pack"

// The paper's search grids.
var (
	AlphaGrid   = []float64{1.5, 2, 2.5, 3}
	BetaGrid    = []float64{1.2, 1.5, 2, 2.5}
	GammaGrid   = []float64{1, 1.2, 1.5}
	LambdaGrid  = []float64{0, 0.1, 0.5, 1, 2, 5}
	EpsilonGrid = []float64{0, 0.02, 0.05, 0.1, 0.2}
	// SimFloorGrid is medkb's third stage (pack.Params.SimFloor), not
	// the paper's.
	SimFloorGrid = []float64{0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9}
)

// TuneRow is one grid point and what Ebm achieved with it.
type TuneRow struct {
	Alpha   float64 `json:"alpha"`
	Beta    float64 `json:"beta"`
	Gamma   float64 `json:"gamma"`
	Lambda  float64 `json:"lambda"`
	Epsilon float64 `json:"epsilon"`
	// SimFloor is pack.Params.SimFloor.
	SimFloor float64 `json:"sim_floor"`
	// RRCE is the share of T1/T2 signal segments that survive.
	RRCE float64 `json:"rrce"`
	// Retention is the share of all signal segments (any tier) that
	// survive: the tie-breaker.
	Retention float64 `json:"retention"`
}

// TuneResult holds the three stages of the search and the winner.
type TuneResult struct {
	Window  int       `json:"window"`
	Weights []TuneRow `json:"weights"` // stage 1: the 35 ordered weight triples
	Decay   []TuneRow `json:"decay"`   // stage 2: lambda x epsilon with the best weights
	Floor   []TuneRow `json:"floor"`   // stage 3: the similarity floor with the best of stage 2
	Best    TuneRow   `json:"best"`
}

// Tune searches the paper's grids with Ebm at one window: first the
// weights (alpha >= beta >= gamma >= 1, 35 triples) with base's lambda,
// epsilon and similarity floor, then lambda x epsilon with the best
// weights, then the similarity floor with the best of those. Best is the
// highest RRCE; ties go to the higher retention of all signal segments
// (not to utility, which grows with the weights themselves and so would
// always favour the largest), then to the earlier grid point; each stage
// starts from the best of the one before, which stays best unless a row
// of the stage beats it (base's lambda need not be on the paper's grid).
func (s *Suite) Tune(window int, base pack.Params) (*TuneResult, error) {
	tr := &TuneResult{Window: window}
	base.Budget, base.Strategy = window, pack.Ebm
	var best TuneRow
	consider := func(row TuneRow) {
		if row.RRCE > best.RRCE || (row.RRCE == best.RRCE && row.Retention > best.Retention) {
			best = row
		}
	}
	best.RRCE = -1
	for _, a := range AlphaGrid {
		for _, b := range BetaGrid {
			for _, g := range GammaGrid {
				if a < b || b < g {
					continue
				}
				row := TuneRow{Alpha: a, Beta: b, Gamma: g, Lambda: base.Lambda, Epsilon: base.Epsilon, SimFloor: base.SimFloor}
				if err := s.scoreRow(&row, base); err != nil {
					return nil, err
				}
				tr.Weights = append(tr.Weights, row)
				consider(row)
			}
		}
	}
	weights := best // and the incumbent: a later row must beat it
	for _, l := range LambdaGrid {
		for _, e := range EpsilonGrid {
			row := weights
			row.Lambda, row.Epsilon = l, e
			if err := s.scoreRow(&row, base); err != nil {
				return nil, err
			}
			tr.Decay = append(tr.Decay, row)
			consider(row)
		}
	}
	decay := best
	for _, f := range SimFloorGrid {
		row := decay
		row.SimFloor = f
		if err := s.scoreRow(&row, base); err != nil {
			return nil, err
		}
		tr.Floor = append(tr.Floor, row)
		consider(row)
	}
	tr.Best = best
	return tr, nil
}

// scoreRow packs every case with the row's parameters and fills its
// RRCE and retention.
func (s *Suite) scoreRow(row *TuneRow, p pack.Params) error {
	p.Weights = [4]float64{row.Alpha, row.Beta, row.Gamma, 1}
	p.Lambda, p.Epsilon, p.SimFloor, p.Count = row.Lambda, row.Epsilon, row.SimFloor, s.count
	type counts struct {
		t1t2, all int
		err       error
	}
	per := make([]counts, len(s.cases))
	packers := make([]pack.Packer, workers())
	parallel(len(s.cases), func(w, i int) {
		q := p
		q.Now = s.cases[i].now
		res, err := packers[w].Pack(s.cases[i].cands, q)
		if err != nil {
			per[i].err = err
			return
		}
		per[i].t1t2, per[i].all = survivors(res, &s.cases[i])
	})
	var t1t2, all, nT1T2, nAll int
	for i, c := range per {
		if c.err != nil {
			return c.err
		}
		t1t2 += c.t1t2
		all += c.all
		nT1T2 += countT1T2(&s.cases[i])
		nAll += len(s.cases[i].signal)
	}
	row.RRCE, row.Retention = fraction(t1t2, nT1T2), fraction(all, nAll)
	return nil
}
