package pack

import (
	"cmp"
	"slices"
)

// packFIFO takes state A in input order (Rank) until the first block that
// does not fit: the paper's truncation, which stops rather than skipping
// ahead to smaller blocks.
func packFIFO(b *builder) {
	order := blockOrder(b.cands, func(x, y *Candidate) int { return cmp.Compare(x.Rank, y.Rank) })
	packInOrder(b, order, WhyOrder)
}

// packSemantic takes state A by similarity to the query, highest first,
// with the same stopping rule as FIFO.
func packSemantic(b *builder) {
	order := blockOrder(b.cands, func(x, y *Candidate) int {
		if c := cmp.Compare(y.A.Sim, x.A.Sim); c != 0 {
			return c
		}
		return cmp.Compare(x.Rank, y.Rank)
	})
	packInOrder(b, order, WhySimilarity)
}

// blockOrder returns the block indices sorted by less, ties by index.
func blockOrder(cands []Candidate, less func(x, y *Candidate) int) []int32 {
	order := make([]int32, len(cands))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int {
		if c := less(&cands[x], &cands[y]); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	return order
}

func packInOrder(b *builder, order []int32, why Why) {
	left := b.p.Budget
	full := false
	for _, i := range order {
		c := &b.cands[i]
		if c.A.Tokens <= 0 {
			b.drop(int(i), aOnlyOrEmpty(c), option{})
			continue
		}
		o := utilityAOption(int(i), c, b.p, c.A.Tokens)
		switch {
		case full:
			b.drop(int(i), ReasonTruncated, o)
		case c.A.Tokens > left:
			full = true
			b.drop(int(i), ReasonBudget, o)
		default:
			left -= c.A.Tokens
			b.take(o, c.A.Text, why, otherAOnly(c))
		}
	}
}
