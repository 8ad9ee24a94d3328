package planner

import (
	"math"
	"slices"
	"sort"
)

// Hit is one retrieved chunk in an arm's ranked list.
type Hit struct {
	Ord   uint64
	Score float64
	held  heldTerms
}

// heldTerms says which of the searched text's terms a BM25 hit holds (bit
// i of holds for terms[i], as bm25.Hit has them); zero for a vector hit.
type heldTerms struct {
	terms []string
	holds uint64
}

// has reports whether the chunk holds term, and whether that is known.
func (h heldTerms) has(term string) (holds, known bool) {
	i := slices.Index(h.terms, term)
	if i < 0 {
		return false, false
	}
	return h.holds&(1<<i) != 0, true
}

// ArmScore is a chunk's place in one retriever's list (rank from 1).
type ArmScore struct {
	Rank  int     `json:"rank"`
	Score float64 `json:"score"`
}

// Fused is one candidate after fusion, with the explanation of its score.
type Fused struct {
	Ord    uint64
	Score  float64
	BM25   *ArmScore
	Vector *ArmScore
	Votes  int // docvote: chunks of the same document retrieved
	// bm25Held is what the BM25 arm said of the terms the chunk holds.
	bm25Held heldTerms
}

// arms pairs the two ranked lists; either may be empty.
type arms struct {
	bm25, vector []Hit
}

// collect merges the arms into one entry per chunk, with ranks.
func (a arms) collect() (map[uint64]*Fused, []uint64) {
	byOrd := make(map[uint64]*Fused, len(a.bm25)+len(a.vector))
	var order []uint64
	get := func(ord uint64) *Fused {
		f := byOrd[ord]
		if f == nil {
			f = &Fused{Ord: ord}
			byOrd[ord] = f
			order = append(order, ord)
		}
		return f
	}
	for i, h := range a.bm25 {
		f := get(h.Ord)
		f.BM25, f.bm25Held = &ArmScore{Rank: i + 1, Score: h.Score}, h.held
	}
	for i, h := range a.vector {
		get(h.Ord).Vector = &ArmScore{Rank: i + 1, Score: h.Score}
	}
	return byOrd, order
}

// fuseRRF scores each chunk by the sum over arms of w/(k + rank), where w
// is the arm's weight: 1 for BM25, the embedder's FusionWeight for the
// vector arm (so a weak arm breaks ties instead of adding noise).
func fuseRRF(a arms, k, vectorWeight float64) []Fused {
	byOrd, order := a.collect()
	out := make([]Fused, 0, len(order))
	for _, ord := range order {
		f := byOrd[ord]
		if f.BM25 != nil {
			f.Score += 1 / (k + float64(f.BM25.Rank))
		}
		if f.Vector != nil {
			f.Score += vectorWeight / (k + float64(f.Vector.Rank))
		}
		out = append(out, *f)
	}
	sortFused(out)
	return out
}

// fuseWeighted scores alpha*N(vector) + (1-alpha)*N(bm25), N being min-max
// normalisation over each arm's list; a chunk absent from an arm gets 0
// there. A list whose scores are all equal carries no ordering signal, so
// its members get 1 (present) rather than a division by zero.
func fuseWeighted(a arms, alpha float64) []Fused {
	byOrd, order := a.collect()
	nb, nv := minMax(a.bm25), minMax(a.vector)
	out := make([]Fused, 0, len(order))
	for _, ord := range order {
		f := byOrd[ord]
		if f.Vector != nil {
			f.Score += alpha * nv(f.Vector.Score)
		}
		if f.BM25 != nil {
			f.Score += (1 - alpha) * nb(f.BM25.Score)
		}
		out = append(out, *f)
	}
	sortFused(out)
	return out
}

func minMax(hits []Hit) func(float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, h := range hits {
		lo, hi = math.Min(lo, h.Score), math.Max(hi, h.Score)
	}
	if !(hi > lo) {
		return func(float64) float64 { return 1 }
	}
	return func(s float64) float64 { return (s - lo) / (hi - lo) }
}

// fuseDocVote implements the document vote of ICA-RAG:
// every sentence of the query retrieved its own top-m chunks per arm
// (perSentence); a document scores the number of its distinct chunks so
// retrieved, and a chunk inherits its document's votes. Ties between
// chunks are broken by their RRF score over the full-query lists, which is
// added scaled below one vote so it never outranks a vote.
func fuseDocVote(a arms, perSentence []arms, docOf func(uint64) string, k, vectorWeight float64) []Fused {
	voted := map[uint64]bool{}
	for _, s := range perSentence {
		for _, h := range s.bm25 {
			voted[h.Ord] = true
		}
		for _, h := range s.vector {
			voted[h.Ord] = true
		}
	}
	votes := map[string]int{}
	for ord := range voted {
		votes[docOf(ord)]++
	}
	base := fuseRRF(a, k, vectorWeight)
	seen := make(map[uint64]bool, len(base))
	tie := 1 / (2 * ((1 + vectorWeight) / (k + 1))) // maps the largest possible RRF sum to 1/2
	out := make([]Fused, 0, len(base)+len(voted))
	for _, f := range base {
		seen[f.Ord] = true
		f.Votes = votes[docOf(f.Ord)]
		f.Score = float64(f.Votes) + f.Score*tie
		out = append(out, f)
	}
	for ord := range voted {
		if !seen[ord] {
			v := votes[docOf(ord)]
			out = append(out, Fused{Ord: ord, Votes: v, Score: float64(v)})
		}
	}
	sortFused(out)
	return out
}

// sortFused orders by score descending, then ordinal, deterministically.
func sortFused(fs []Fused) {
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].Score != fs[j].Score {
			return fs[i].Score > fs[j].Score
		}
		return fs[i].Ord < fs[j].Ord
	})
}
