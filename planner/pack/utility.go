package pack

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/medkb/medkb/internal/base"
)

// daysPerYear converts a Day difference to years for the decay exp(-lambda*dt).
const daysPerYear = 365.25

// option is one state of one block in the flattened pool: 24 bytes and
// pointer-free, so that sorting a thousand of them stays cheap.
type option struct {
	density float64
	utility float64
	ref     int32 // block<<1, plus 1 for state B
	tokens  int32
}

func (o *option) block() int32 { return o.ref >> 1 }

func (o *option) state() StateID {
	if o.ref&1 != 0 {
		return StateB
	}
	return StateA
}

func newOption(i int, s *State, id StateID, utility, density float64) option {
	ref := int32(i) << 1
	if id == StateB {
		ref |= 1
	}
	return option{density: density, utility: utility, ref: ref, tokens: int32(s.Tokens)}
}

// decay returns exp(-lambda*dt) with dt in years before p.Now; a block
// without a day, or dated after Now, has dt = 0.
func decay(p *Params, day base.Day) float64 {
	if p.Lambda == 0 || day == base.NoDay || p.Now == base.NoDay || day >= p.Now {
		return 1
	}
	return math.Exp(-p.Lambda / daysPerYear * float64(p.Now-day))
}

// fidelityB is F(B).
func fidelityB(c *Candidate, epsilon float64) float64 {
	if c.NTotal == 0 {
		return 1
	}
	return math.Min(1, float64(c.NEntity)/float64(c.NTotal)+epsilon)
}

// blockScale is W(tier) * exp(-lambda*dt) * (1 - w + w*reliability), the
// part of U shared by a block's states; dt is 0 for a permanent block.
func blockScale(c *Candidate, p *Params) float64 {
	scale := p.weight(c.Tier) * (1 - p.Reliability + p.Reliability*c.Reliability)
	if c.Permanent {
		return scale
	}
	return scale * decay(p, c.Day)
}

// appendStates appends block i's non-empty states to dst.
func appendStates(dst []option, i int, c *Candidate, p *Params) []option {
	scale := blockScale(c, p)
	if c.A.Tokens > 0 {
		dst = append(dst, stateOption(i, c, &c.A, StateA, p, scale))
	}
	if c.B != nil && c.B.Tokens > 0 {
		dst = append(dst, stateOption(i, c, c.B, StateB, p, fidelityB(c, p.Epsilon)*scale))
	}
	return dst
}

// stateOption is state s of block i with the given share of its Sim:
// utility scale*Sim and density scale*Sim/C, Sim/C computed once.
func stateOption(i int, c *Candidate, s *State, id StateID, p *Params, scale float64) option {
	perToken := p.simPerToken(c, s)
	return newOption(i, s, id, scale*(perToken*float64(s.Tokens)), scale*perToken)
}

// appendOptions appends every non-empty state of every block to dst:
// the flattened pool of the paper's algorithm.
func appendOptions(dst []option, cands []Candidate, p *Params) []option {
	for i := range cands {
		dst = appendStates(dst, i, &cands[i], p)
	}
	return dst
}

// sortByDensity fills order with the pool's indices in density order:
// density descending, then utility descending, then Rank, ID, block
// index and state. It is a total order, so packing is deterministic.
// Runs of equal density are common: the states of one tier and age that
// share nothing with the query all have the floor's density.
func sortByDensity(pool []option, cands []Candidate, keys []uint64, order []int32) ([]uint64, []int32) {
	keys = resize(keys, len(pool))
	for i := range pool {
		d := pool[i].density
		if d == 0 {
			d = 0 // -0 would sort before every positive density
		}
		// The inverted bits of a non-negative float64 order like the
		// float, descending.
		keys[i] = ^math.Float64bits(d)
	}
	order = sortByKey(keys, resize(order, len(keys)), func(a, b int32) int {
		return denser(&pool[a], &pool[b], cands)
	})
	return keys, order
}

// sortByKey fills order with 0..len(keys)-1 sorted by keys[i] ascending,
// and within runs of keys that agree but for their low bits, by full,
// the exact order, whose first criterion keys must agree with. It sorts
// plain integers for speed: the low bits of every key, as many as it
// takes to count len(keys), are replaced by the index, so keys that
// differ only there form runs, which full then puts in exact order.
func sortByKey(keys []uint64, order []int32, full func(a, b int32) int) []int32 {
	mask := uint64(1)<<bits.Len(uint(len(keys))) - 1
	for i := range keys {
		keys[i] = keys[i]&^mask | uint64(i)
	}
	slices.Sort(keys)
	for k, key := range keys {
		order[k] = int32(key & mask)
	}
	for lo := 0; lo < len(keys); {
		hi := lo + 1
		for hi < len(keys) && keys[hi]&^mask == keys[lo]&^mask {
			hi++
		}
		if hi-lo > 1 {
			slices.SortFunc(order[lo:hi], full)
		}
		lo = hi
	}
	return order
}

// denser is the full density order of two options.
func denser(a, b *option, cands []Candidate) int {
	if a.density != b.density {
		if a.density > b.density {
			return -1
		}
		return 1
	}
	if a.utility != b.utility {
		if a.utility > b.utility {
			return -1
		}
		return 1
	}
	ca, cb := &cands[a.block()], &cands[b.block()]
	if ca.Rank != cb.Rank {
		return cmp.Compare(ca.Rank, cb.Rank)
	}
	if c := strings.Compare(ca.ID, cb.ID); c != 0 {
		return c
	}
	return cmp.Compare(a.ref, b.ref) // block index, then A before B
}

// resize returns s with length n, reusing its memory when it is large enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
