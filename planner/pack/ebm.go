package pack

import (
	"cmp"
	"slices"

	"github.com/medkb/medkb/internal/base"
)

// blockMark tracks one block during the greedy: the density-order
// positions of its densest option and of the option taken (-1 for none),
// and which pass took it.
type blockMark struct {
	first, taken int32
	tier         base.Tier
	quota        bool
	upgraded     bool // moved from state B to A by the upgrade pass
}

// packEbm is the paper's greedy: flatten, sort by density, quota pass per
// tier, then the density walk with mutual-exclusion and budget checks.
func packEbm(b *builder) {
	cands, p, pk := b.cands, b.p, b.pk
	pk.pool = appendOptions(resize(pk.pool, 2*len(cands))[:0], cands, p)
	pk.keys, pk.order = sortByDensity(pk.pool, cands, pk.keys, pk.order)
	pool, order := pk.pool, pk.order // order[k] is the k-th densest option

	pk.marks = resize(pk.marks, len(cands))
	marks := pk.marks
	for i := range marks {
		marks[i] = blockMark{first: -1, taken: -1, tier: cands[i].Tier}
	}
	for k := len(order) - 1; k >= 0; k-- {
		marks[pool[order[k]].block()].first = int32(k)
	}

	left, short := quotaPass(b, false)
	if short.total() > 0 {
		// The quota blocks' densest states left a quota place empty for
		// lack of budget. Try again with each quota block in its cheapest
		// state, and keep that try if it fills more places without
		// leaving short a tier the first try met; the upgrade pass below
		// gives a block its full text back when room is left.
		pk.firstTry = append(pk.firstTry[:0], marks...)
		if l, s := quotaPass(b, true); s.total() < short.total() && short.keptMetIn(s) {
			left = l
		} else {
			copy(marks, pk.firstTry)
		}
	}
	for k, i := range order {
		o := &pool[i]
		m := &marks[o.block()]
		if m.taken >= 0 || int(o.tokens) > left {
			continue
		}
		m.taken = int32(k)
		left -= int(o.tokens)
	}
	upgrade(pool, order, marks, left)

	for i := range cands {
		m := marks[i]
		switch {
		case m.first < 0:
			b.drop(i, ReasonEmpty, option{})
		case m.taken < 0:
			b.drop(i, ReasonBudget, pool[order[m.first]])
		default:
			why := WhyDensity
			if m.quota {
				why = WhyQuota
			}
			b.takeState(pool[order[m.taken]], why, otherFate(&cands[i], m))
		}
	}
}

// quotaPass takes, for each tier present, the Kmin densest blocks that
// fit, in tier order, each in its densest state that fits or, with
// cheapest, in its cheapest state. It clears any earlier quota picks
// first, and returns the budget left and, per tier, how many quota places
// it could not fill.
func quotaPass(b *builder, cheapest bool) (left int, short quotaShort) {
	cands, p, pool, order, marks := b.cands, b.p, b.pk.pool, b.pk.order, b.pk.marks
	for i := range marks {
		marks[i].taken, marks[i].quota = -1, false
	}
	var cheap []int32 // per block, the order position of its cheapest option
	if cheapest {
		b.pk.cheap = resize(b.pk.cheap, len(cands))
		cheap = b.pk.cheap
		for k, i := range order {
			o, c := &pool[i], &cheap[pool[i].block()]
			if marks[o.block()].first == int32(k) || o.tokens < pool[order[*c]].tokens {
				*c = int32(k)
			}
		}
	}
	left = p.Budget
	present := presentPerTier(cands)
	for _, t := range base.Tiers {
		want := min(p.Kmin, present[t])
		for k := 0; k < len(order) && want > 0; k++ {
			at := int32(k)
			m := &marks[pool[order[k]].block()]
			if cheapest {
				if m.first != at {
					continue // a block's turn is at its densest option
				}
				at = cheap[pool[order[k]].block()]
			}
			o := &pool[order[at]]
			if m.tier != t || m.taken >= 0 || int(o.tokens) > left || cands[o.block()].Weak {
				continue
			}
			m.taken, m.quota = at, true
			left -= int(o.tokens)
			want--
		}
		short[t] = want
	}
	return left, short
}

// quotaShort counts, per tier, the quota places a quota pass left empty.
type quotaShort [len(base.Tiers) + 1]int

func (s quotaShort) total() int {
	n := 0
	for _, v := range s {
		n += v
	}
	return n
}

// keptMetIn reports whether every tier that met its quota in s still
// meets it in after.
func (s quotaShort) keptMetIn(after quotaShort) bool {
	for t := range s {
		if s[t] == 0 && after[t] > 0 {
			return false
		}
	}
	return true
}

// otherFate says what happened to the state of a chosen block that was
// not taken: a denser state seen first was skipped for budget; a less
// dense one lost to mutual exclusion.
func otherFate(c *Candidate, m blockMark) Reason {
	if !hasTwoStates(c) {
		return ReasonNone
	}
	if m.upgraded {
		return ReasonMutualExclusion
	}
	if m.first < m.taken {
		return ReasonBudget
	}
	return ReasonMutualExclusion
}

func hasTwoStates(c *Candidate) bool {
	return c.A.Tokens > 0 && c.B != nil && c.B.Tokens > 0
}

// upgrade is medkb's addition to the paper's greedy: once the density walk
// is done, a block packed in its compressed state B moves to its full
// state A when the extra tokens fit in what is left, in order of A's
// utility per extra token. The density walk prefers B because it is cheap;
// when the budget turns out to have room, the paper's greedy would leave
// it empty and whatever B dropped lost. A holds everything B holds, so the
// move loses nothing, even where B's own vector happens to sit a little
// closer to the query and the formula rates B higher.
func upgrade(pool []option, order []int32, marks []blockMark, left int) {
	type move struct {
		block    int32
		to       int32 // density-order position of the A option
		extra    int
		gainRate float64
	}
	pos := make([]int32, len(pool))
	for k, i := range order {
		pos[i] = int32(k)
	}
	var moves []move
	for i := range pool {
		a := &pool[i]
		if a.state() != StateA {
			continue
		}
		m := &marks[a.block()]
		if m.taken < 0 {
			continue
		}
		b := &pool[order[m.taken]]
		if b.state() != StateB || a.tokens <= b.tokens {
			continue
		}
		extra := int(a.tokens - b.tokens)
		moves = append(moves, move{block: a.block(), to: pos[i], extra: extra, gainRate: a.utility / float64(extra)})
	}
	slices.SortFunc(moves, func(x, y move) int {
		if c := cmp.Compare(y.gainRate, x.gainRate); c != 0 {
			return c
		}
		return cmp.Compare(x.block, y.block)
	})
	for _, mv := range moves {
		if mv.extra > left {
			continue
		}
		m := &marks[mv.block]
		m.taken, m.upgraded = mv.to, true
		left -= mv.extra
	}
}
