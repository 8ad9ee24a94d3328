package pack

// sim is the Sim of the utility formula for a state whose cosine to the
// query is cos: SimFloor + (1 - SimFloor) * cos, with cos clamped to
// [0, 1].
//
// The paper computes Sim as the cosine of sentence-encoder vectors, which
// gives even unrelated medical texts small positive values. medkb's
// built-in embedder is lexical and centres unrelated texts on 0, so the
// bare cosine would give a critical line that shares no word with the
// query (a potassium value under "most likely diagnosis?") zero utility
// that no tier weight can lift. The floor keeps a share of the
// tier-weighted utility for every block; above it the cosine orders the
// blocks. A high floor lets tier decide and the cosine barely matter,
// which also lets one-word fragments win on density; DefaultSimFloor was
// chosen on MedQA vignettes held out from the benchmark's sample
// (planner/pack/rrce; README, "The similarity floor").
func (p *Params) sim(cos float64) float64 {
	return p.SimFloor + (1-p.SimFloor)*min(1, max(cos, 0))
}
