package pack

import (
	"context"
	"fmt"

	"github.com/medkb/medkb/internal/base"
)

// MaxExactCells bounds the dynamic-programming table of Exact: blocks x
// (budget+1) x (quota levels), one byte each. Near the bound Exact takes
// 0.1-0.2 s on one core (BenchmarkPackExactNearBound); past it Pack
// returns ErrTooLarge.
const MaxExactCells = 1 << 24

// dpValue is a partial packing's worth, ordered lexicographically: fewer
// unmet quota places first, then more utility. Unreached states carry
// short = unreachable.
type dpValue struct {
	short int32
	util  float64
}

const unreachable = int32(1 << 30)

func (a dpValue) better(b dpValue) bool {
	if a.short != b.short {
		return a.short < b.short
	}
	return a.util > b.util
}

// choice byte: low two bits = option taken (0 none, 1 first, 2 second);
// fromFull marks that the quota counter was already full before this take.
const fromFull = 4

// blockOptions holds a block's non-empty states for the DP.
type blockOptions struct {
	block int32
	n     int
	opts  [2]option
}

// tierTable is one tier's slice of the DP: its blocks, quota, and
// per-budget choice of quota progress at the tier's end.
type tierTable struct {
	blocks []blockOptions
	want   int
	offset int     // into the choice table
	endQ   []int32 // quota progress chosen at the tier's end, per budget
}

// quotaGroups are the DP's block groups in order: the blocks the quota
// does not apply to (builder.inQuota; filed under TierNone), then the
// tiers.
var quotaGroups = [...]base.Tier{base.TierNone, base.T1, base.T2, base.T3, base.T4}

// packExact solves the MCKP with tier quotas exactly. Tiers are processed
// one after another; within a tier the state is (budget used, quota
// progress capped at want). At a tier's end the shortfall want-q is added
// to the value, so when every quota can be met the optimum meets them, and
// when not, the packing meets as many quota places as possible and then
// maximises utility.
func packExact(b *builder) error {
	cands, p := b.cands, b.p
	var tiers [5]tierTable
	budget := 0 // no packing can use more than the sum of the largest states
	for i := range cands {
		c := &cands[i]
		bo := blockOptions{block: int32(i)}
		bo.n = len(appendStates(bo.opts[:0], i, c, p))
		if bo.n == 0 {
			continue
		}
		budget += int(max(bo.opts[0].tokens, bo.opts[bo.n-1].tokens))
		group := c.Tier
		if !b.inQuota(c) {
			group = base.TierNone // a group of its own, without a quota
		}
		tiers[group].blocks = append(tiers[group].blocks, bo)
	}
	budget = min(budget, p.Budget)
	width := budget + 1
	tooLarge := func() error {
		return fmt.Errorf("%w: %d candidates at budget %d exceed %d table cells", ErrTooLarge, len(cands), p.Budget, MaxExactCells)
	}
	if width > MaxExactCells {
		return tooLarge()
	}

	cells, maxRow := 0, 0
	for _, t := range quotaGroups {
		tt := &tiers[t]
		if t != base.TierNone {
			tt.want = min(p.Kmin, len(tt.blocks))
		}
		tt.offset = cells
		row := width * (tt.want + 1)
		maxRow = max(maxRow, row)
		if len(tt.blocks) > 0 && row > (MaxExactCells-cells)/len(tt.blocks) {
			return tooLarge()
		}
		cells += len(tt.blocks) * row
	}

	b.pk.choices = resize(b.pk.choices, cells)
	b.pk.values = resize(b.pk.values, width+maxRow)
	choices := b.pk.choices
	carry := b.pk.values[:width] // best value of the tiers done so far, per budget
	vals := b.pk.values[width:]
	clear(carry)
	for _, t := range quotaGroups {
		tt := &tiers[t]
		if len(tt.blocks) > 0 {
			var err error
			if tt.endQ, err = solveTier(b.ctx, tt, carry, vals[:width*(tt.want+1)], choices); err != nil {
				return err
			}
		}
	}
	picked := backtrack(tiers, choices, budget, len(cands))

	for i := range cands {
		c := &cands[i]
		switch {
		case !hasState(c):
			b.drop(i, ReasonEmpty, option{})
		case picked[i].tokens > 0:
			o := picked[i]
			other := ReasonNone
			if hasTwoStates(c) {
				other = ReasonMutualExclusion
			}
			b.takeState(o, WhyOptimal, other)
		default:
			b.drop(i, ReasonNotOptimal, densest(c, p, i))
		}
	}
	return nil
}

// solveTier runs the DP over one tier's blocks, starting from carry (the
// best value of the previous tiers per budget, quota progress 0), writes
// the per-block choices, and folds the result back into carry. It looks
// at ctx after each block's row (at most MaxExactCells cells in all).
func solveTier(ctx context.Context, tt *tierTable, carry, vals []dpValue, choices []byte) ([]int32, error) {
	want, w := tt.want, tt.want+1
	width := len(carry)
	for c := range width {
		vals[c*w] = carry[c]
		for q := 1; q <= want; q++ {
			vals[c*w+q] = dpValue{short: unreachable}
		}
	}
	off := tt.offset
	for _, bo := range tt.blocks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ch := choices[off : off+width*w]
		off += width * w
		for c := width - 1; c >= 0; c-- {
			for q := 0; q <= want; q++ {
				best, pick := vals[c*w+q], byte(0)
				for s := range bo.n {
					o := &bo.opts[s]
					cost := int(o.tokens)
					if cost > c {
						continue
					}
					prev := (c - cost) * w
					if q > 0 {
						if v := vals[prev+q-1]; v.short < unreachable {
							if cand := (dpValue{v.short, v.util + o.utility}); cand.better(best) {
								best, pick = cand, byte(s+1)
							}
						}
					}
					if q == want {
						if v := vals[prev+q]; v.short < unreachable {
							if cand := (dpValue{v.short, v.util + o.utility}); cand.better(best) {
								best, pick = cand, byte(s+1)|fromFull
							}
						}
					}
				}
				vals[c*w+q], ch[c*w+q] = best, pick
			}
		}
	}
	endQ := make([]int32, width)
	for c := range width {
		best, bestQ := dpValue{short: unreachable}, 0
		for q := want; q >= 0; q-- {
			v := vals[c*w+q]
			if v.short >= unreachable {
				continue
			}
			v.short += int32(want - q)
			if v.better(best) {
				best, bestQ = v, q
			}
		}
		carry[c], endQ[c] = best, int32(bestQ)
	}
	return endQ, nil
}

// backtrack walks the choice table from the full budget back to the
// first tier and returns, per block, the option taken (tokens 0 for none).
func backtrack(tiers [5]tierTable, choices []byte, budget, n int) []option {
	picked := make([]option, n)
	width := budget + 1
	c := budget
	for ti := len(quotaGroups) - 1; ti >= 0; ti-- {
		tt := &tiers[quotaGroups[ti]]
		if len(tt.blocks) == 0 {
			continue
		}
		w := tt.want + 1
		q := int(tt.endQ[c])
		for j := len(tt.blocks) - 1; j >= 0; j-- {
			x := choices[tt.offset+j*width*w+c*w+q]
			if x&3 == 0 {
				continue
			}
			bo := &tt.blocks[j]
			o := bo.opts[x&3-1]
			picked[bo.block] = o
			c -= int(o.tokens)
			if x&fromFull == 0 {
				q--
			}
		}
		if q != 0 || c < 0 {
			panic(fmt.Sprintf("pack: exact backtrack left group %d at quota progress %d, budget %d", quotaGroups[ti], q, c))
		}
	}
	return picked
}

func hasState(c *Candidate) bool {
	return c.A.Tokens > 0 || (c.B != nil && c.B.Tokens > 0)
}

// densest returns block i's densest non-empty state.
func densest(c *Candidate, p *Params, i int) option {
	var opts [2]option
	all := appendStates(opts[:0], i, c, p)
	best := all[0]
	for _, o := range all[1:] {
		if o.density > best.density {
			best = o
		}
	}
	return best
}
