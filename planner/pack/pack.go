package pack

import (
	"context"
	"errors"
	"fmt"
)

// maxCandidates keeps block indices within the pool's 31-bit references.
const maxCandidates = 1 << 30

// ErrInvalid is returned (wrapped) when a parameter or candidate is out of
// range; the message names the field and, for a candidate, its index and id.
var ErrInvalid = errors.New("medkb: invalid packing input")

// ErrTooLarge is returned (wrapped) by the Exact strategy when the
// dynamic-programming table would exceed MaxExactCells.
var ErrTooLarge = errors.New("medkb: too large for exact packing (use strategy ebm, or lower the budget or the number of candidates)")

// Pack chooses at most one state of each candidate so that the chosen
// tokens fit p.Budget, using p.Strategy. It reads cands and never keeps
// or changes them. It is new(Packer).Pack.
func Pack(cands []Candidate, p Params) (*Result, error) {
	var pk Packer
	return pk.Pack(cands, p)
}

// A Packer packs like Pack but keeps its scratch memory (the flattened
// pool, the sort keys, Exact's table) for the next call, which matters
// when packing many times in a loop. The zero value is ready to use. A
// Packer is not safe for concurrent use; Results never share its memory.
type Packer struct {
	pool  []option
	keys  []uint64
	order []int32
	marks []blockMark
	// Ebm's scratch: marks saved while a second try runs (the quota
	// retry, repriceQuota), and each block's cheapest option (quotaPass).
	saved []blockMark
	cheap []int32
	// Each option's density-order position, the upgrade pass's moves,
	// the quota picks by density (dropReason), and one tier's options
	// (pricedQuotaPass).
	pos   []int32
	moves []upgradeMove
	rooms []quotaRoom
	tier  []int32
	// The packed options awaiting assembly (builder).
	picks []pick
	// Exact's table.
	choices []byte
	values  []dpValue
}

// Pack packs cands under p; see the package function Pack.
func (pk *Packer) Pack(cands []Candidate, p Params) (*Result, error) {
	return pk.PackContext(context.Background(), cands, p)
}

// PackContext is Pack that gives up with ctx's error when ctx ends: the
// strategies whose work grows beyond n log n (Exact's table, Uniform's
// counting of cut texts) look at it between blocks.
func (pk *Packer) PackContext(ctx context.Context, cands []Candidate, p Params) (*Result, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	if len(cands) > maxCandidates {
		return nil, fmt.Errorf("%w: %d candidates, at most %d", ErrInvalid, len(cands), maxCandidates)
	}
	for i := range cands {
		if err := cands[i].validate(i); err != nil {
			return nil, err
		}
	}
	b := newBuilder(ctx, cands, &p, pk)
	var err error
	switch p.Strategy {
	case Ebm, Paper:
		packEbm(b)
	case Exact:
		err = packExact(b)
	case FIFO:
		packFIFO(b)
	case Semantic:
		packSemantic(b)
	case Uniform:
		err = packUniform(b)
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	return b.finish(), nil
}
