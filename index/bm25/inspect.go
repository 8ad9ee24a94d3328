package bm25

import (
	"context"
	"fmt"
	"slices"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
)

// Count returns the number of indexed chunks.
func (ix *Index) Count() (uint64, error) {
	n, err := ix.bleve.DocCount()
	if err != nil {
		return 0, fmt.Errorf("bm25: count: %w", err)
	}
	return n, nil
}

// Ords calls fn with every indexed ordinal in ascending order, from one
// snapshot of the index, and stops at the first error fn returns. It holds
// all ordinals in memory (8 bytes each) to sort them.
func (ix *Index) Ords(fn func(ord uint64) error) error {
	ords, err := ix.ords()
	if err != nil {
		return fmt.Errorf("bm25: ords: %w", err)
	}
	for _, ord := range ords {
		if err := fn(ord); err != nil {
			return err
		}
	}
	return nil
}

func (ix *Index) ords() (_ []uint64, err error) {
	adv, err := ix.bleve.Advanced()
	if err != nil {
		return nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := r.Close(); err == nil {
			err = cerr
		}
	}()
	n, err := r.DocCount()
	if err != nil {
		return nil, err
	}
	all, err := r.DocIDReaderAll()
	if err != nil {
		return nil, err
	}
	defer func() {
		if cerr := all.Close(); err == nil {
			err = cerr
		}
	}()
	ords := make([]uint64, 0, n)
	for {
		id, err := all.Next()
		if err != nil {
			return nil, err
		}
		if id == nil {
			break
		}
		ext, err := r.ExternalID(id)
		if err != nil {
			return nil, err
		}
		ord, err := decodeOrd(ext)
		if err != nil {
			return nil, err
		}
		ords = append(ords, ord)
	}
	slices.Sort(ords)
	return ords, nil
}

// Compact merges the index into one segment (scorch's limit is 2^30
// chunks a segment) and waits for it; meant for the nightly rebuild,
// after the last Apply. Search keeps working meanwhile. One forced merge
// combines at most ten segments per task, so Compact repeats it while the
// segment count falls.
func (ix *Index) Compact(ctx context.Context) error {
	if ix.readOnly {
		return ErrReadOnly
	}
	adv, err := ix.bleve.Advanced()
	if err != nil {
		return fmt.Errorf("bm25: compact: %w", err)
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return fmt.Errorf("bm25: compact: index is %T, not scorch", adv)
	}
	n, err := segmentCount(s)
	for err == nil && n > 1 {
		opts := mergeplan.SingleSegmentMergePlanOptions
		if err = s.ForceMerge(ctx, &opts); err != nil {
			break
		}
		if err = ctx.Err(); err != nil {
			break
		}
		before := n
		if n, err = segmentCount(s); err == nil && n >= before {
			break // no progress; leave the rest to the merger
		}
	}
	if err != nil {
		return fmt.Errorf("bm25: compact: %w", err)
	}
	return nil
}

// segmentCount returns the number of segments in the current snapshot.
func segmentCount(s *scorch.Scorch) (int, error) {
	r, err := s.Reader()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return 0, fmt.Errorf("reader is %T, not a scorch snapshot", r)
	}
	return len(snap.Segments()), nil
}
