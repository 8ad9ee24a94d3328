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
	// byChoice: the state taken won over a denser one that fit (the
	// upgrade pass, the priced quota), so the other lost to mutual
	// exclusion, not to the budget.
	byChoice bool
}

// packEbm is the paper's greedy: flatten, sort by density, quota pass per
// tier, then the density walk with mutual-exclusion and budget checks;
// with medkb's additions, unless the strategy is Paper: the quota retry
// in cheapest states, the upgrade pass, and the priced quota
// (repriceQuota).
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
	pk.pos = resize(pk.pos, len(order))
	for k := len(order) - 1; k >= 0; k-- {
		marks[pool[order[k]].block()].first = int32(k)
		pk.pos[order[k]] = int32(k)
	}

	left, short := quotaPass(b, false)
	additions := p.Strategy == Ebm
	if additions && short.total() > 0 {
		// The quota blocks' densest states left a quota place empty for
		// lack of budget. Try again with each quota block in its cheapest
		// state, and keep that try if it fills more places without
		// leaving short a tier the first try met; the upgrade pass below
		// gives a block its full text back when room is left.
		pk.saved = append(pk.saved[:0], marks...)
		if l, s := quotaPass(b, true); s.total() < short.total() && short.keptMetIn(s) {
			left, short = l, s
		} else {
			copy(marks, pk.saved)
		}
	}
	left, price := densityWalk(pool, order, marks, left)
	if additions {
		upgrade(pk, left)
		if price > 0 && p.Kmin > 0 && repriceQuota(b, short, price) {
			b.res.QuotaPrice = price
		}
	}

	left = p.Budget
	rooms := pk.rooms[:0]
	for _, m := range marks {
		if m.taken >= 0 {
			o := pool[order[m.taken]]
			left -= int(o.tokens)
			if m.quota {
				rooms = append(rooms, quotaRoom{o.density, int(o.tokens)})
			}
		}
	}
	pk.rooms = sumRooms(rooms)
	for i := range cands {
		m := marks[i]
		switch {
		case m.first < 0:
			b.drop(i, ReasonEmpty, option{})
		case m.taken < 0:
			best := pool[order[m.first]]
			b.drop(i, dropReason(&cands[i], best.density, pk.rooms, left, p.Budget), best)
		default:
			why := WhyDensity
			if m.quota {
				why = WhyQuota
			}
			b.takeState(pool[order[m.taken]], why, otherFate(&cands[i], m))
		}
	}
}

// quotaPass fills the tier quotas: for each tier present, the Kmin
// densest blocks that fit, each in its densest state that fits or, with
// cheapest, in its cheapest state. The paper's pass (Paper) serves the
// tiers one after another, T1 first; Ebm's serves them together in one
// walk in density order, so that when the budget cannot hold every
// quota block the denser ones, which answer the question better, come
// first (medkb's fourth addition). It clears any earlier quota picks
// first, and returns the budget left and, per tier, how many quota
// places it could not fill.
func quotaPass(b *builder, cheapest bool) (left int, short quotaShort) {
	cands, p, pool, order, marks := b.cands, b.p, b.pk.pool, b.pk.order, b.pk.marks
	clearPicks(marks)
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
	var want quotaShort
	for _, t := range base.Tiers {
		want[t] = min(p.Kmin, b.present[t])
	}
	left = p.Budget
	walk := func(tier base.Tier) {
		for k := 0; k < len(order); k++ {
			at := int32(k)
			m := &marks[pool[order[k]].block()]
			t := m.tier
			if want[t] == 0 || tier != base.TierNone && t != tier {
				continue
			}
			if cheapest {
				if m.first != at {
					continue // a block's turn is at its densest option
				}
				at = cheap[pool[order[k]].block()]
			}
			o := &pool[order[at]]
			if !b.quotaEligible(m, o, t, left) {
				continue
			}
			m.taken, m.quota = at, true
			left -= int(o.tokens)
			want[t]--
		}
	}
	if p.Strategy == Paper {
		for _, t := range base.Tiers {
			walk(t)
		}
	} else {
		walk(base.TierNone) // every tier at once
	}
	return left, want
}

// densityWalk is the paper's density walk: in density order, it takes
// every state that fits whose block is not chosen yet. It returns the
// budget left and the density of the first state it skipped for budget
// (0 when none was): roughly what a token of budget is worth at the
// margin, as the break item's density is in the LP relaxation of a
// knapsack.
func densityWalk(pool []option, order []int32, marks []blockMark, left int) (int, float64) {
	price := 0.0
	for k, i := range order {
		o := &pool[i]
		m := &marks[o.block()]
		switch {
		case m.taken >= 0:
		case int(o.tokens) > left:
			if price == 0 {
				price = o.density
			}
		default:
			m.taken = int32(k)
			left -= int(o.tokens)
		}
	}
	return left, price
}

// repriceQuota is medkb's third addition to the paper's greedy. The
// paper's quota pass takes each tier's densest blocks, but a quota block
// of a low tier is far less dense than the T1/T2 states it displaces, so
// what it costs is its tokens, not its density: a dense 80-token
// examination note costs the budget 80 tokens of T1/T2 evidence, where a
// 12-token one meets the same quota. So once the greedy has run and the
// density walk has priced a token (densityWalk), the packing is redone
// with the quota blocks chosen by U - price * C, the Lagrangian of the
// budget constraint. The new packing is kept if it meets every quota the
// first packing met and either fills more quota places or fills as many
// with a higher total utility (beyond rounding). short is the first
// packing's quota shortfall. It reports whether the new packing was kept.
func repriceQuota(b *builder, short quotaShort, price float64) bool {
	pool, order, marks, pk := b.pk.pool, b.pk.order, b.pk.marks, b.pk
	pk.saved = append(pk.saved[:0], marks...)
	left, s := pricedQuotaPass(b, price)
	if sameQuotaPicks(marks, pk.saved) {
		copy(marks, pk.saved) // the rest would be packed as before
		return false
	}
	left, _ = densityWalk(pool, order, marks, left)
	upgrade(pk, left)
	before, after := takenUtility(pool, order, pk.saved), takenUtility(pool, order, marks)
	better := s.total() < short.total() ||
		(s.total() == short.total() && after > before+1e-9*max(1, before))
	if !better || !short.keptMetIn(s) {
		copy(marks, pk.saved)
		return false
	}
	return true
}

// sameQuotaPicks reports whether the quota passes behind marks and before
// took the same states of the same blocks.
func sameQuotaPicks(marks, before []blockMark) bool {
	for i := range marks {
		m, o := &marks[i], &before[i]
		if m.quota != o.quota || (m.quota && m.taken != o.taken) {
			return false
		}
	}
	return true
}

// pricedQuotaPass is quotaPass with blocks chosen by U - price * C: for
// each tier present, Kmin times, the state with the highest such value
// among the tier's unchosen blocks that fit (ties: the denser).
func pricedQuotaPass(b *builder, price float64) (left int, short quotaShort) {
	p, pool, order, marks := b.p, b.pk.pool, b.pk.order, b.pk.marks
	clearPicks(marks)
	left = p.Budget
	for _, t := range base.Tiers {
		want := min(p.Kmin, b.present[t])
		if want == 0 {
			continue
		}
		// The tier's options that fit, in density order: each pick below
		// scans these alone, which matters when Kmin is large.
		tier := resize(b.pk.tier, len(order))[:0]
		for k, i := range order {
			if b.quotaEligible(&marks[pool[i].block()], &pool[i], t, left) {
				tier = append(tier, int32(k))
			}
		}
		b.pk.tier = tier
		for ; want > 0; want-- {
			best, bestValue := int32(-1), 0.0
			for _, k := range tier {
				o := &pool[order[k]]
				if !b.quotaEligible(&marks[o.block()], o, t, left) {
					continue
				}
				if v := o.utility - price*float64(o.tokens); best < 0 || v > bestValue {
					best, bestValue = k, v
				}
			}
			if best < 0 {
				break
			}
			m := &marks[pool[order[best]].block()]
			m.taken, m.quota = best, true
			m.byChoice = m.first != m.taken && int(pool[order[m.first]].tokens) <= left
			left -= int(pool[order[best]].tokens)
		}
		short[t] = want
	}
	return left, short
}

// quotaEligible reports whether option o can fill a quota place of tier
// t: its block is of that tier, not chosen yet and one the quota applies
// to (builder.inQuota), and o fits.
func (b *builder) quotaEligible(m *blockMark, o *option, t base.Tier, left int) bool {
	return m.tier == t && m.taken < 0 && int(o.tokens) <= left && b.inQuota(&b.cands[o.block()])
}

// clearPicks undoes every pick, so that a quota pass starts afresh.
func clearPicks(marks []blockMark) {
	for i := range marks {
		marks[i].taken, marks[i].quota, marks[i].byChoice = -1, false, false
	}
}

// takenUtility is the total utility of the picks.
func takenUtility(pool []option, order []int32, marks []blockMark) float64 {
	u := 0.0
	for _, m := range marks {
		if m.taken >= 0 {
			u += pool[order[m.taken]].utility
		}
	}
	return u
}

// quotaShort counts, per tier, the quota places a quota pass left empty.
type quotaShort tierCounts

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

// quotaRoom is a quota pick's density and the tokens of all quota picks
// that dense or less (sumRooms).
type quotaRoom struct {
	density float64
	tokens  int
}

// sumRooms sorts the quota picks by density and sums their tokens.
func sumRooms(rooms []quotaRoom) []quotaRoom {
	slices.SortFunc(rooms, func(x, y quotaRoom) int { return cmp.Compare(x.density, y.density) })
	for k := 1; k < len(rooms); k++ {
		rooms[k].tokens += rooms[k-1].tokens
	}
	return rooms
}

// dropReason says why Ebm left out block c, whose densest state has the
// given density, with left tokens unused: no state fits the budget at
// all; it would have fit in the room of the quota picks less dense than
// it (rooms, from sumRooms); or the denser blocks took the room.
func dropReason(c *Candidate, density float64, rooms []quotaRoom, left, budget int) Reason {
	cheapest := c.A.Tokens
	if c.B != nil && c.B.Tokens > 0 && (cheapest <= 0 || c.B.Tokens < cheapest) {
		cheapest = c.B.Tokens
	}
	switch {
	case cheapest > budget:
		return ReasonBudget
	case len(rooms) == 0 || density <= rooms[0].density: // most drops
		return ReasonLowerDensity
	}
	lo, hi := 1, len(rooms) // rooms[:lo] are less dense than the block
	for lo < hi {
		if mid := (lo + hi) / 2; rooms[mid].density < density {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if cheapest <= left+rooms[lo-1].tokens {
		return ReasonQuota
	}
	return ReasonLowerDensity
}

// otherFate says what happened to the state of a chosen block that was
// not taken: a denser state seen first was skipped for budget; a less
// dense one lost to mutual exclusion.
func otherFate(c *Candidate, m blockMark) Reason {
	if !hasTwoStates(c) {
		return ReasonNone
	}
	if m.byChoice {
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

// upgradeMove is a block's move from state B to A: the density-order
// position of the A option, the extra tokens and A's utility per extra
// token.
type upgradeMove struct {
	block    int32
	to       int32
	extra    int
	gainRate float64
}

// upgrade is medkb's addition to the paper's greedy: once the density walk
// is done, a block packed in its compressed state B moves to its full
// state A when the extra tokens fit in what is left, in order of A's
// utility per extra token. The density walk prefers B because it is cheap;
// when the budget turns out to have room, the paper's greedy would leave
// it empty and whatever B dropped lost. A holds everything B holds, so the
// move loses nothing, even where B's own vector happens to sit a little
// closer to the query and the formula rates B higher.
func upgrade(pk *Packer, left int) {
	pool, order, marks := pk.pool, pk.order, pk.marks
	moves := pk.moves[:0]
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
		moves = append(moves, upgradeMove{block: a.block(), to: pk.pos[i], extra: extra, gainRate: a.utility / float64(extra)})
	}
	pk.moves = moves
	slices.SortFunc(moves, func(x, y upgradeMove) int {
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
		m.taken, m.byChoice = mv.to, true
		left -= mv.extra
	}
}
