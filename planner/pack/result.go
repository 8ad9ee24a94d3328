package pack

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/medkb/medkb/internal/base"
)

// StateID names a block's state.
type StateID byte

// The two states of a block.
const (
	StateA StateID = 'A' // full text
	StateB StateID = 'B' // fidelity-preserving compression (T1, T2)
)

// String returns "A" or "B".
func (s StateID) String() string { return string(rune(s)) }

// MarshalText implements encoding.TextMarshaler.
func (s StateID) MarshalText() ([]byte, error) { return []byte{byte(s)}, nil }

// Why says why an item was packed.
type Why string

// The reasons an item is in the packing.
const (
	WhyQuota      Why = "quota"      // Ebm: taken by the tier-quota pass
	WhyDensity    Why = "density"    // Ebm: taken by the density walk
	WhyOptimal    Why = "optimal"    // Exact: part of the optimum
	WhyOrder      Why = "order"      // FIFO: came early enough in input order
	WhySimilarity Why = "similarity" // Semantic: similar enough to the query
	WhyUniform    Why = "uniform"    // Uniform: every block keeps the same share
)

// Reason says why a block, or a state of a chosen block, was left out.
// It is a small integer so that a thousand drops cost no pointers; it
// prints and marshals as its name.
type Reason uint8

// The reasons a block or state is left out. ReasonNone is the zero value:
// nothing was left out.
const (
	ReasonNone Reason = iota
	// ReasonBudget: it did not fit the budget left when its turn came.
	// For a block Ebm leaves out, it says more: no state of the block
	// fits the whole budget (else the reason is ReasonQuota or
	// ReasonLowerDensity); for a chosen block's other state (Item.Other),
	// it is the plain meaning.
	ReasonBudget
	// ReasonLowerDensity (Ebm): it would fit the budget, but denser
	// blocks took the room.
	ReasonLowerDensity
	// ReasonQuota (Ebm): it would have fit in the room that tiers'
	// quotas gave blocks less dense than it.
	ReasonQuota
	// ReasonMutualExclusion: another state of the same block was taken.
	ReasonMutualExclusion
	// ReasonTruncated: FIFO and Semantic stopped at an earlier block that
	// did not fit; Uniform cut the block to nothing.
	ReasonTruncated
	// ReasonNotOptimal: Exact found a better packing without it.
	ReasonNotOptimal
	// ReasonEmpty: no state of the block has any tokens.
	ReasonEmpty
	// ReasonAOnly: the strategy considers state A only (the baselines).
	ReasonAOnly
)

// String returns the reason's name, e.g. "budget".
func (r Reason) String() string {
	switch r {
	case ReasonNone:
		return ""
	case ReasonBudget:
		return "budget"
	case ReasonLowerDensity:
		return "lower-density"
	case ReasonQuota:
		return "quota"
	case ReasonMutualExclusion:
		return "mutual-exclusion"
	case ReasonTruncated:
		return "truncated"
	case ReasonNotOptimal:
		return "not-optimal"
	case ReasonEmpty:
		return "empty"
	case ReasonAOnly:
		return "a-only"
	}
	return fmt.Sprintf("reason(%d)", uint8(r))
}

// MarshalText implements encoding.TextMarshaler.
func (r Reason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// Item is one packed block in its chosen state.
type Item struct {
	Index int       `json:"index"` // into the candidates
	ID    string    `json:"id"`
	Tier  base.Tier `json:"tier"`
	Day   base.Day  `json:"day"`
	State StateID   `json:"state"`
	// Text is the chosen state's text (for Uniform, the cut text).
	Text    string  `json:"text"`
	Tokens  int     `json:"tokens"`
	Utility float64 `json:"utility"`
	Density float64 `json:"density"`
	Why     Why     `json:"why"`
	// Other is what became of the block's other state, ReasonNone when
	// it has none: ReasonBudget when it was denser but did not fit,
	// ReasonMutualExclusion when this state won, ReasonAOnly for baselines.
	Other Reason `json:"other,omitempty"`
	// InQuota: the tier quota counts the block (Candidate.Relevance is
	// at least QuotaRelevance of the best), so it is one of its tier's
	// Got; Recount counts these again when a caller cuts items.
	InQuota bool `json:"in_quota,omitempty"`
}

// Drop is one block left out entirely, described by its densest state.
// It holds no strings (the candidate's ID is cands[Index].ID) so that
// dropping most of a thousand candidates stays cheap.
type Drop struct {
	Index   int       `json:"index"`
	Tier    base.Tier `json:"tier"`
	Reason  Reason    `json:"reason"`
	State   StateID   `json:"state,omitempty"` // 0 for ReasonEmpty
	Tokens  int       `json:"tokens"`
	Density float64   `json:"density"`
}

// TierQuota accounts for one tier present among the candidates.
type TierQuota struct {
	Tier    base.Tier `json:"tier"`
	Present int       `json:"present"` // blocks of the tier the quota applies to (a non-empty state, inQuota)
	Want    int       `json:"want"`    // min(Kmin, Present)
	Got     int       `json:"got"`     // of those, blocks packed
	Met     bool      `json:"met"`
}

// Result is a packing. Every candidate appears exactly once, in Items or
// in Dropped.
type Result struct {
	Strategy Strategy `json:"strategy"`
	Budget   int      `json:"budget"`
	// Items are in reading order: tier (T1 first), then day (newest
	// first, undated last), then ID, then index.
	Items []Item `json:"items"`
	// Dropped are in candidate order.
	Dropped    []Drop      `json:"dropped"`
	TokensUsed int         `json:"tokens_used"`
	Utility    float64     `json:"utility"`
	Quota      []TierQuota `json:"quota"` // tiers present, T1..T4
	QuotaMet   bool        `json:"quota_met"`
	// QuotaPrice is the utility per token by which Ebm chose its quota
	// blocks when it kept its priced packing (see the package doc); 0
	// when the quota blocks are the paper's densest, and for the other
	// strategies.
	QuotaPrice float64 `json:"quota_price,omitempty"`
}

// Text joins the packed items' texts in reading order, one per line.
func (r *Result) Text() string {
	var sb strings.Builder
	for i, it := range r.Items {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(it.Text)
	}
	return sb.String()
}

// builder collects a strategy's decisions and assembles the Result.
type builder struct {
	ctx   context.Context // a strategy that may run long stops when it ends
	cands []Candidate
	p     *Params
	pk    *Packer
	picks []pick
	res   *Result
	// present counts, per tier, the blocks the quota applies to
	// (presentPerTier).
	present tierCounts
	// quotaRelevance is the least Relevance of a block the quota applies
	// to (inQuota).
	quotaRelevance float64
}

// pick is a packed option awaiting assembly: Items are built once, in
// reading order, by finish (sorting these is cheaper than sorting Items).
type pick struct {
	o     option
	text  string
	why   Why
	other Reason
}

func newBuilder(ctx context.Context, cands []Candidate, p *Params, pk *Packer) *builder {
	b := &builder{ctx: ctx, cands: cands, p: p, pk: pk, picks: pk.picks[:0], res: &Result{
		Strategy: p.Strategy,
		Budget:   p.Budget,
		Dropped:  make([]Drop, 0, len(cands)),
	}}
	best := 0.0
	for i := range cands {
		best = max(best, cands[i].Relevance)
	}
	b.quotaRelevance = QuotaRelevance * best
	b.present = b.presentPerTier()
	return b
}

// QuotaRelevance is the share of the most relevant block's Relevance that
// a block needs for the tier quota to apply to it: a quota place is for
// evidence that answers the question, and a block of marginal relevance
// does not earn one by its tier alone. Without relevance (all 0) the
// quota applies to every block, as in the paper.
const QuotaRelevance = 0.5

// inQuota reports whether the tier quota applies to c: it is at least
// QuotaRelevance as relevant as the most relevant block.
func (b *builder) inQuota(c *Candidate) bool {
	return c.Relevance >= b.quotaRelevance
}

// take records option o packed with the given text.
func (b *builder) take(o option, text string, why Why, other Reason) {
	b.picks = append(b.picks, pick{o: o, text: text, why: why, other: other})
}

// takeState records option o packed with its state's own text.
func (b *builder) takeState(o option, why Why, other Reason) {
	c := &b.cands[o.block()]
	text := c.A.Text
	if o.state() == StateB {
		text = c.B.Text
	}
	b.take(o, text, why, other)
}

// drop records block i as left out; best is its densest state, or the
// zero option for an empty block.
func (b *builder) drop(i int, reason Reason, best option) {
	d := Drop{Index: i, Tier: b.cands[i].Tier, Reason: reason}
	if best.tokens > 0 {
		d.State, d.Tokens, d.Density = best.state(), int(best.tokens), best.density
	}
	b.res.Dropped = append(b.res.Dropped, d)
}

// finish builds the items in reading order, sorts the drops, and fills
// totals and quota accounting.
func (b *builder) finish() *Result {
	r, cands := b.res, b.cands
	r.Items = make([]Item, len(b.picks))
	var got tierCounts
	for k, p := range b.readingOrder() {
		pk := &b.picks[p]
		i := int(pk.o.block())
		c := &cands[i]
		r.Items[k] = Item{
			Index: i, ID: c.ID, Tier: c.Tier, Day: c.Day, State: pk.o.state(),
			Text: pk.text, Tokens: int(pk.o.tokens), Utility: pk.o.utility, Density: pk.o.density,
			Why: pk.why, Other: pk.other,
		}
		r.TokensUsed += int(pk.o.tokens)
		r.Utility += pk.o.utility
		if b.inQuota(c) {
			r.Items[k].InQuota = true
			got[c.Tier]++
		}
	}
	clear(b.picks) // drop the text references before the buffer is kept
	b.pk.picks = b.picks[:0]

	byIndex := func(x, y Drop) int { return cmp.Compare(x.Index, y.Index) }
	if !slices.IsSortedFunc(r.Dropped, byIndex) { // most strategies drop in candidate order
		slices.SortFunc(r.Dropped, byIndex)
	}
	for _, t := range base.Tiers {
		if b.present[t] > 0 {
			r.Quota = append(r.Quota, TierQuota{Tier: t, Present: b.present[t], Want: min(b.p.Kmin, b.present[t])})
		}
	}
	r.QuotaMet = tallyQuota(r.Quota, got)
	return r
}

// tallyQuota sets each tier's Got from got and its Met, and reports
// whether every tier's quota is met: the one place a quota is counted.
func tallyQuota(quota []TierQuota, got tierCounts) bool {
	all := true
	for i := range quota {
		q := &quota[i]
		q.Got = got[q.Tier]
		q.Met = q.Got >= q.Want
		all = all && q.Met
	}
	return all
}

// Recount counts quota again over kept, what is left of the packing's
// Items after a caller cut some (a LIMIT): a tier whose only counted
// block was cut no longer has its quota met. Present and Want stand. It
// returns the recounted copy and whether every tier's quota is met.
func Recount(quota []TierQuota, kept []Item) ([]TierQuota, bool) {
	var got tierCounts
	for _, it := range kept {
		if it.InQuota {
			got[it.Tier]++
		}
	}
	out := slices.Clone(quota)
	return out, tallyQuota(out, got)
}

// tierCounts holds a count per tier, indexed by base.Tier (0 unused).
type tierCounts [len(base.Tiers) + 1]int

// presentPerTier counts, per tier, the blocks the quota applies to: those
// with a non-empty state and inQuota.
func (b *builder) presentPerTier() tierCounts {
	var n tierCounts
	for i := range b.cands {
		c := &b.cands[i]
		if b.inQuota(c) && (c.A.Tokens > 0 || (c.B != nil && c.B.Tokens > 0)) {
			n[c.Tier]++
		}
	}
	return n
}

// readingOrder returns the picks' indices in reading order (readingCmp),
// sorted in the Packer's keys and order, which the strategy is done with.
// A key is the tier, then the day inverted, so that the newest comes
// first and NoDay, the smallest, last.
func (b *builder) readingOrder() []int32 {
	pk := b.pk
	pk.keys = resize(pk.keys, len(b.picks))
	for k := range b.picks {
		c := &b.cands[b.picks[k].o.block()]
		pk.keys[k] = uint64(c.Tier)<<61 | uint64(^(uint32(c.Day)^1<<31))<<29
	}
	pk.order = sortByKey(pk.keys, resize(pk.order, len(pk.keys)), func(x, y int32) int {
		i, j := int(b.picks[x].o.block()), int(b.picks[y].o.block())
		return readingCmp(&b.cands[i], &b.cands[j], i, j)
	})
	return pk.order
}

// readingCmp orders blocks for reading: by tier, then newest first
// (undated last), then ID, then index.
func readingCmp(x, y *Candidate, i, j int) int {
	return readingKey{x.Tier, x.Day, x.ID, i}.cmp(readingKey{y.Tier, y.Day, y.ID, j})
}

// ReadingCmp orders packed items as Items are: by tier, then newest first
// (undated last), then ID, then candidate index. It lets a caller that
// packs in several calls put the items of all of them in one reading
// order.
func ReadingCmp(x, y Item) int {
	return readingKey{x.Tier, x.Day, x.ID, x.Index}.cmp(readingKey{y.Tier, y.Day, y.ID, y.Index})
}

// readingKey is what reading order compares.
type readingKey struct {
	tier  base.Tier
	day   base.Day
	id    string
	index int
}

func (x readingKey) cmp(y readingKey) int {
	if x.tier != y.tier {
		return cmp.Compare(x.tier, y.tier)
	}
	if x.day != y.day {
		return cmp.Compare(y.day, x.day) // NoDay is the smallest Day, so it sorts last
	}
	if c := strings.Compare(x.id, y.id); c != 0 {
		return c
	}
	return cmp.Compare(x.index, y.index)
}
