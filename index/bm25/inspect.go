package bm25

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"slices"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"

	"github.com/medkb/medkb/store"
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
	defer recoverCorrupt("ords", &err)
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

// Verify reads every segment file of the index's current snapshot whole
// and checks the CRC-32 that ends it, which Open does not: a garbled
// segment may open and then fail (or return wrong hits) only when a
// search reaches the garbled bytes. The error, ErrCorrupt, names the file.
//
// The background merger replaces segments and deletes their files while
// Verify reads (scorch removes a file once no persisted snapshot names
// it, whatever snapshots readers hold), so a file missing is damage only
// if the current snapshot still names it; otherwise Verify starts over
// on the snapshot that replaced it, a few times at most.
func (ix *Index) Verify() error {
	paths, err := ix.segmentPaths()
	for attempt := 1; err == nil; attempt++ {
		missing, verr := verifySegments(paths)
		if missing == "" || attempt == verifyAttempts {
			return verr
		}
		if paths, err = ix.segmentPaths(); err == nil && slices.Contains(paths, missing) {
			return verr
		}
	}
	return fmt.Errorf("bm25: verify: %w", err)
}

// verifyAttempts bounds how often Verify starts over after the merger
// replaced a segment it was reading.
const verifyAttempts = 5

// segmentPaths returns the files of the current snapshot's persisted
// segments (one still only in memory has nothing on disk).
func (ix *Index) segmentPaths() ([]string, error) {
	s, err := ix.scorch()
	if err != nil {
		return nil, err
	}
	var paths []string
	err = withSnapshot(s, func(snap *scorch.IndexSnapshot) error {
		for _, seg := range snap.Segments() {
			if p, ok := seg.Segment().(interface{ Path() string }); ok {
				paths = append(paths, p.Path())
			}
		}
		return nil
	})
	return paths, err
}

// verifySegments checks each of paths; missing is the first that does
// not exist, "" when every file was there.
func verifySegments(paths []string) (missing string, err error) {
	for _, p := range paths {
		if err := verifySegment(p); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				missing = p
			}
			return missing, fmt.Errorf("bm25: verify %s: %w", p, err)
		}
	}
	return "", nil
}

// verifySegment checks a zap file's footer checksum: the CRC-32 (IEEE) of
// everything before its last four bytes, stored big-endian in them.
func verifySegment(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() < 4 {
		return fmt.Errorf("%w: %d bytes, too short for a segment", ErrCorrupt, fi.Size())
	}
	h := crc32.NewIEEE()
	if _, err := io.Copy(h, io.LimitReader(f, fi.Size()-4)); err != nil {
		return err
	}
	var stored [4]byte
	if _, err := io.ReadFull(f, stored[:]); err != nil {
		return err
	}
	if got, want := h.Sum32(), binary.BigEndian.Uint32(stored[:]); got != want {
		return fmt.Errorf("%w: checksum %08x, the footer says %08x", ErrCorrupt, got, want)
	}
	return nil
}

// scorch returns the scorch index under ix.
func (ix *Index) scorch() (*scorch.Scorch, error) {
	adv, err := ix.bleve.Advanced()
	if err != nil {
		return nil, err
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return nil, fmt.Errorf("index is %T, not scorch", adv)
	}
	return s, nil
}

// Compact merges the index into one segment (scorch's limit is 2^30
// chunks a segment) and waits for it; meant for the nightly rebuild,
// after the last Apply. Search keeps working meanwhile. One forced merge
// combines at most ten segments per task, so Compact repeats it while the
// segment count falls.
func (ix *Index) Compact(ctx context.Context) error {
	if ix.readOnly {
		return fmt.Errorf("bm25: %w (the bm25 index)", store.ErrReadOnly)
	}
	s, err := ix.scorch()
	if err != nil {
		return fmt.Errorf("bm25: compact: %w", err)
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
func segmentCount(s *scorch.Scorch) (n int, err error) {
	err = withSnapshot(s, func(snap *scorch.IndexSnapshot) error {
		n = len(snap.Segments())
		return nil
	})
	return n, err
}

// withSnapshot calls fn with the current snapshot of s, held meanwhile.
func withSnapshot(s *scorch.Scorch, fn func(*scorch.IndexSnapshot) error) (err error) {
	r, err := s.Reader()
	if err != nil {
		return err
	}
	defer func() {
		if cerr := r.Close(); err == nil {
			err = cerr
		}
	}()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return fmt.Errorf("reader is %T, not a scorch snapshot", r)
	}
	return fn(snap)
}
