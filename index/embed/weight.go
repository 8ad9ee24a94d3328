package embed

// hashFusionWeight is the built-in hash embedder's weight in rank fusion.
// It is a lexical model, a noisier cousin of BM25 rather than a
// complement to it: on NFCorpus (test titles) its arm alone scores nDCG@10
// 0.211 against BM25's 0.323, and equal-weight RRF of the two (0.303)
// falls below BM25 alone. Weighted 0.10-0.20 the arm only breaks BM25's
// near-ties (0.325-0.326); 0.15 sits in the middle of that plateau.
const hashFusionWeight = 0.15

// FusionWeight returns how much rank fusion should trust e's arm relative
// to BM25 (weight 1): the embedder's own FusionWeight method when it has
// one, else 1 (a semantic model is a full partner).
func FusionWeight(e Embedder) float64 {
	if w, ok := e.(interface{ FusionWeight() float64 }); ok {
		return w.FusionWeight()
	}
	return 1
}

// FusionWeight implements the optional method FusionWeight looks for.
func (e *hashEmbedder) FusionWeight() float64 { return hashFusionWeight }
