package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// checkLimit caps the problems Check reports.
const checkLimit = 100

// Check verifies the file and the invariants between buckets, and returns
// every problem found (nil when consistent). First the file, page by page
// with ordinary reads (checkPages: a damaged page names itself here, and
// cannot crash the check); then, if every page is sound, bbolt's own
// check; then every record, verifying its checksum, in each bucket whose
// pages are sound; then, if none is damaged, the invariants: every
// document's chunks exist and name it back, every chunk belongs to a
// document, the live vector slots are exactly the stored chunks and hold
// unit (or zero) vectors, and the counters agree.
func (s *Store) Check() []error {
	var problems []error
	add := func(err error) {
		if len(problems) < checkLimit {
			problems = append(problems, inFile(s.Path(), err))
		}
	}
	addf := func(format string, args ...any) { add(corruptFile(s.Path(), format, args...)) }
	bf, err := openBoltFile(s.Path())
	if err != nil {
		return []error{err}
	}
	for _, err := range bf.metaProblems() {
		add(err)
	}
	pageProblems, damaged := bf.checkPages(checkLimit)
	bf.Close()
	for _, p := range pageProblems {
		add(p)
	}
	if damaged["(root)"] {
		return problems
	}
	if len(pageProblems) == 0 {
		err := s.view(func(tx *bolt.Tx) error {
			for err := range tx.Check() {
				add(corruptFile(s.Path(), "bbolt: %v", err))
			}
			return nil
		})
		if err != nil {
			add(err)
		}
	}
	var c recordCheck
	for _, part := range []struct {
		buckets []string
		walk    func(tx *bolt.Tx, add func(error))
	}{
		{[]string{"chunks"}, func(tx *bolt.Tx, add func(error)) { s.checkChunks(tx, &c, add) }},
		{[]string{"docs"}, func(tx *bolt.Tx, add func(error)) { s.checkDocs(tx, &c, add) }},
		{[]string{"ents", "trip"}, func(tx *bolt.Tx, add func(error)) {
			if _, _, err := readGraph(context.Background(), tx); err != nil {
				add(err)
			}
		}},
		{[]string{"log"}, checkLog},
		{[]string{"meta", "docs", "chunks", "vecs"}, func(tx *bolt.Tx, add func(error)) {
			if len(damaged) == 0 && len(problems) == 0 {
				s.checkInvariants(tx, &c, addf)
			}
		}},
	} {
		if slices.ContainsFunc(part.buckets, func(b string) bool { return damaged[b] }) {
			continue
		}
		// A transaction per part: a page bbolt cannot read stops that part
		// only, and becomes one more problem.
		if err := s.view(func(tx *bolt.Tx) error { part.walk(tx, add); return nil }); err != nil {
			add(err)
		}
	}
	return problems
}

// Verify checks the system of record of the store in dir without writing
// to it: it opens the generation CURRENT names (or opts.Generation)
// read-only and runs Check. When the file is too damaged to open, the
// reason is the first problem, and the pages are still walked
// (checkPages) for the rest. err is for a store that cannot be checked at
// all: missing, locked, not a store.
func Verify(dir string, opts *Options) (problems []error, err error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	o.ReadOnly = true
	s, err := Open(dir, &o)
	if err == nil {
		defer s.Close()
		return s.Check(), nil
	}
	if !errors.Is(err, ErrCorrupt) {
		return nil, err
	}
	problems = []error{err}
	if o.Generation == "" {
		if o.Generation, err = Current(dir); err != nil {
			return problems, nil
		}
	}
	bf, err := openBoltFile(filepath.Join(dir, o.Generation, dbFile))
	if err != nil {
		return problems, nil // the same reason again
	}
	defer bf.Close()
	pageProblems, _ := bf.checkPages(checkLimit - 1)
	return append(problems, pageProblems...), nil
}

// recordCheck is what the record walks learn for the invariants.
type recordCheck struct {
	chunkDoc map[uint64]string // chunk ordinal -> the document it names
	docs     []docRecord
}

// checkChunks decodes (and so verifies) every chunk record.
func (s *Store) checkChunks(tx *bolt.Tx, c *recordCheck, add func(error)) {
	c.chunkDoc = map[uint64]string{}
	tx.Bucket(bucketChunks).ForEach(func(k, v []byte) error {
		if len(k) != 8 {
			add(corruptFile(s.Path(), "chunks: key %x is not an ordinal", k))
			return nil
		}
		ch, err := decodeChunk(decodeU64(k), v)
		if err != nil {
			add(s.named(err))
			return nil
		}
		c.chunkDoc[ch.Ord] = ch.Doc
		return nil
	})
}

// checkDocs decodes (and so verifies) every document record.
func (s *Store) checkDocs(tx *bolt.Tx, c *recordCheck, add func(error)) {
	tx.Bucket(bucketDocs).ForEach(func(k, v []byte) error {
		var rec docRecord
		if err := decodeDoc(string(k), v, &rec); err != nil {
			add(s.named(err))
			return nil
		}
		if rec.ID != string(k) {
			add(corruptFile(s.Path(), "document key %q holds id %q", k, rec.ID))
		}
		c.docs = append(c.docs, rec)
		return nil
	})
}

// checkLog decodes every replay-log entry.
func checkLog(tx *bolt.Tx, add func(error)) {
	tx.Bucket(bucketLog).ForEach(func(k, v []byte) error {
		if _, err := decodeLog(v); err != nil {
			add(fmt.Errorf("sequence %x: %w", k, err))
		}
		return nil
	})
}

// named fills in the file of a corruptError made inside a transaction
// whose error is not returned through view.
func (s *Store) named(err error) error {
	var ce *corruptError
	if errors.As(err, &ce) && ce.path == "" {
		ce.path = s.Path()
	}
	return err
}

// checkInvariants verifies what the records say of each other.
func (s *Store) checkInvariants(tx *bolt.Tx, c *recordCheck, add func(string, ...any)) {
	meta := tx.Bucket(bucketMeta)
	var tiers [5]int
	owned := 0
	for _, rec := range c.docs {
		if !rec.Tier.Valid() {
			add("document %q has no tier", rec.ID)
		} else {
			tiers[rec.Tier]++
		}
		for _, ord := range rec.Chunks {
			switch owner, ok := c.chunkDoc[ord]; {
			case !ok:
				add("document %q lists missing chunk %d", rec.ID, ord)
			case owner != rec.ID:
				add("document %q lists chunk %d of %q", rec.ID, ord, owner)
			default:
				owned++
			}
		}
	}
	if owned != len(c.chunkDoc) {
		add("%d chunks belong to no document", len(c.chunkDoc)-owned)
	}
	live := s.checkSlots(tx, c.chunkDoc, add)
	want := map[string][2]int{
		"documents": {len(c.docs), int(getU64(meta, keyDocs))},
		"chunks":    {len(c.chunkDoc), int(getU64(meta, keyChunks))},
		"vectors":   {live, int(getU64(meta, keyLive))},
	}
	for t := 1; t <= 4; t++ {
		want[fmt.Sprintf("T%d documents", t)] = [2]int{tiers[t], int(getU64(meta, keyTierDocs[t]))}
	}
	for name, v := range want {
		if v[0] != v[1] {
			add("counter of %s says %d, found %d", name, v[1], v[0])
		}
	}
}

// checkSlots verifies that live slots are exactly the stored chunks and
// returns how many are live.
func (s *Store) checkSlots(tx *bolt.Tx, chunkDoc map[uint64]string, add func(string, ...any)) int {
	meta := tx.Bucket(bucketMeta)
	dim := int(getU64(meta, keyDim))
	next := getU64(meta, keyNextOrd)
	if dim == 0 {
		if len(chunkDoc) > 0 {
			add("%d chunks but no vector dimension recorded", len(chunkDoc))
		}
		return 0
	}
	size := slotHeaderSize + 4*dim
	live := 0
	var seen uint64
	tx.Bucket(bucketVecs).ForEach(func(k, v []byte) error {
		seg := uint64(decodeU32(k))
		if seg*SegmentSlots != seen || len(v)%size != 0 {
			add("vector segment %d out of place or torn", seg)
			return nil
		}
		for off := 0; off < len(v); off += size {
			ord := seen
			seen++
			_, stored := chunkDoc[ord]
			alive := v[off+5] == 1
			if v[off+5] > 1 || v[off+6] != 0 || v[off+7] != 0 || !getSlot(v[off:], ord).Tier.Valid() {
				add("vector slot %d: its header is damaged", ord)
			} else if n := norm(v[off+slotHeaderSize : off+size]); alive && !(n == 0 || math.Abs(n-1) < 1e-3) {
				add("vector slot %d: not a unit vector (norm %g): damaged", ord, n)
			}
			switch {
			case alive && !stored:
				live++
				add("vector slot %d is live but its chunk is missing", ord)
			case !alive && stored:
				add("chunk %d has a dead vector slot", ord)
			case alive:
				live++
			}
		}
		return nil
	})
	if seen != next {
		add("vector slots cover %d ordinals, next ordinal is %d", seen, next)
	}
	return live
}

// norm is the L2 norm of little-endian float32s (NaN if one is not finite).
func norm(b []byte) float64 {
	var sum float64
	for i := 0; i+4 <= len(b); i += 4 {
		f := float64(math.Float32frombits(binary.LittleEndian.Uint32(b[i:])))
		sum += f * f
	}
	return math.Sqrt(sum)
}
