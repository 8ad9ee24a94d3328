package packbench

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/medkb/medkb/internal/dedup"
	"github.com/medkb/medkb/planner/pack"
)

// AddDuplicates returns copies of the cases with 1 to 3 copy-forward
// duplicates of their signal segments each (issue 20's protocol): a copy
// has its original's text, type, tier and date, is not itself signal,
// and is inserted at a random place. A signal segment survives when it
// or one of its copies is packed with its keys, so copies neither add
// to RRCE's denominator nor steal a survival. Like AddNoise, the copies
// depend only on seed and the case's id; the input is not modified.
func AddDuplicates(cases []Case, seed int64) []Case {
	out := make([]Case, len(cases))
	for i, c := range cases {
		rng := rand.New(rand.NewPCG(uint64(seed)^0x9e3779b97f4a7c15, idHash(c.ID)))
		var signal []int
		for k, s := range c.Segments {
			if s.Signal {
				signal = append(signal, k)
			}
		}
		segs := append([]Segment(nil), c.Segments...)
		if len(signal) > 0 {
			for k := range 1 + rng.IntN(3) {
				dup := c.Segments[signal[rng.IntN(len(signal))]]
				dup.copyOf, dup.ID, dup.Signal = dup.ID, fmt.Sprintf("%s/copy-%d", c.ID, k), false
				at := rng.IntN(len(segs) + 1)
				segs = append(segs[:at], append([]Segment{dup}, segs[at:]...)...)
			}
		}
		c.Segments = segs
		out[i] = c
	}
	return out
}

// dedup drops the case's near-duplicates as the planner's Dedup does
// (internal/dedup), with the cosine of each full text to the query as
// the rank score and the tier as the group (a case is one patient). A
// signal segment dropped for a copy is accounted for by the kept copy;
// Rank is renumbered so the input order stays FIFO's.
func (p *prepared) dedup(vecA [][]float32) {
	es := make([]dedup.Entry, len(p.cands))
	for i, c := range p.cands {
		es[i] = dedup.Entry{Text: c.A.Text, Vec: vecA[i], Group: c.Tier.String(), Score: c.A.Sim, Day: c.Day}
	}
	order := make([]int, len(es)) // best first: Find keeps the first of close copies
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(es[b].Score, es[a].Score) })
	ranked := make([]dedup.Entry, len(es))
	for k, i := range order {
		ranked[k] = es[i]
	}
	keptAs := make([]int, len(es)) // the candidate that stands for each
	for k, m := range dedup.Find(ranked) {
		keptAs[order[k]] = order[k]
		if m != nil {
			keptAs[order[k]] = order[m.Kept]
		}
	}
	newIndex := make([]int, len(es))
	var cands []pack.Candidate
	for i, c := range p.cands {
		if keptAs[i] == i {
			newIndex[i] = len(cands)
			c.Rank = len(cands)
			cands = append(cands, c)
		}
	}
	for s := range p.signal {
		sg := &p.signal[s]
		var copies []int
		for _, k := range append([]int{sg.cand}, sg.copies...) {
			if i := newIndex[keptAs[k]]; !slices.Contains(copies, i) {
				copies = append(copies, i)
			}
		}
		sg.cand, sg.copies = copies[0], copies[1:]
	}
	p.cands = cands
}
