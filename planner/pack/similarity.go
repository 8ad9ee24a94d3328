package pack

import "math"

// FloorTokens is the length at which a block's floor share equals
// Params.SimFloor; see sim.
const FloorTokens = 20

// sim is the Sim of the utility formula for state s of block c:
//
//	Sim = R^p * ((1 - SimFloor) * cos + SimFloor * s.Tokens / FloorTokens)
//
// with cos = s.Sim clamped to [0, 1], R = c.Relevance and p =
// Params.RelevancePower (R^p is 1 when p is 0: the formula without
// relevance, which the RRCE benchmark uses).
//
// The paper's Sim is the bare cosine of sentence-encoder vectors, which
// gives even unrelated medical texts small positive values. medkb's
// built-in embedder is lexical and centres unrelated texts on 0, so the
// bare cosine would give a critical line that shares no word with the
// query (a potassium value under "most likely diagnosis?") zero utility
// that no tier weight can lift. The floor is that missing share, paid per
// token rather than per block: per block, it made a two-word fragment
// ("BUN:", "33%") worth as much as a whole lab panel and so the densest
// item in the pool. Per token, it adds the same density, W * SimFloor /
// FloorTokens before decay and F(B), to every state of a tier: within a
// tier the cosine per token orders the blocks, across tiers the weights
// decide unless the cosine says otherwise. A state B is costed like any
// text, so compression pays off through its cosine and its fit, not
// through a floor earned by the words it dropped. DefaultSimFloor was
// chosen on MedQA vignettes held out from the benchmark's sample
// (internal/bench/packbench; docs/benchmarks.md, "The similarity floor").
//
// In a query Sim is scaled by R^p, the block's relevance
// from every retrieval signal (the planner's: BM25 coverage of the
// question, vector cosine, graph support): every token of a block that
// answers the question is worth more. To the fourth power (p = 4,
// QueryRelevancePower), a block half as relevant as the best is worth a
// sixteenth as much per token, and one three quarters as relevant a
// third: a tier weight of 2.5 then orders only blocks within a fifth of
// each other's relevance (2.5^(1/4) = 1.26), and an unrelated T2
// sentence that shares one word with the question no longer outranks the
// T4 sentence that answers it. Squared, the tiers still won on PubMedQA
// (a T2 "Only 3 surgeons (10%) ..." over the T4 sentence that answered);
// cubed, they won at 128 tokens; see doc.go, "Relevance".
func (p *Params) sim(c *Candidate, s *State) float64 {
	return p.simPerToken(c, s) * float64(s.Tokens)
}

// simPerToken is sim divided by s.Tokens (> 0), computed term by term so
// that states of one tier that differ only in length get exactly the same
// density: the floor term is the same constant for all of them, where
// sim/tokens would round differently for 41 and 42 tokens and let float
// noise, not the documented tie-breaks, order them.
func (p *Params) simPerToken(c *Candidate, s *State) float64 {
	d := (1 - p.SimFloor) * min(1, max(s.Sim, 0)) / float64(s.Tokens)
	return p.relevanceFactor(c) * (d + p.SimFloor/FloorTokens)
}

// relevanceFactor is R^p, or 1 when p is 0 (see sim).
func (p *Params) relevanceFactor(c *Candidate) float64 {
	if p.RelevancePower == 0 {
		return 1
	}
	return math.Pow(c.Relevance, p.RelevancePower)
}
