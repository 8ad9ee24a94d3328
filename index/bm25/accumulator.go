package bm25

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"sync"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zap "github.com/blevesearch/zapx/v17"
)

// checkEvery is how many postings pass between looks at ctx.
const checkEvery = 4096

// skipRatio: complete skips through a segment's postings to the
// candidates when they are fewer than one in skipRatio of the postings,
// and reads them all otherwise. zapx reads frequencies and norms in
// chunks, so a skip costs nearly as much as the postings it passes within
// a chunk; 4 did best on the 100k-chunk stores of docs/benchmarks.md.
const skipRatio = 4

// accumulator holds the partial scores of one query, by chunk number:
// a segment's offset (the live and deleted chunks of the segments before
// it) plus the chunk's number in the segment. sum and holds are
// meaningful only where matched is not 0, the only entry release clears.
type accumulator struct {
	// snap is the snapshot segs, dicts and offsets were read from: a
	// query on the same one (the index has not changed) reuses them.
	snap    *scorch.IndexSnapshot
	segs    []*scorch.SegmentSnapshot
	dicts   []*zap.Dictionary // of the text field, by segment
	offsets []uint64          // by segment, then the number of chunks
	terms   int               // in the query
	coords  []float64         // coordination factor by terms held
	sum     []float64
	matched []uint8  // query terms held, for the coordination factor
	holds   []uint16 // which, as bits of Hit.Holds
	touched []uint64
	// cands, once complete has run (pruned), are the touched chunks
	// that can still reach the top k; the others have matched set to 0.
	cands  []uint64
	pruned bool
	// admitted, when not nil, has bit d set for each chunk the filter
	// admits; scores are kept for those only.
	admitted []uint64
	scores   []float64 // scratch
	bits     []uint64  // scratch, for sortDocs
	// norms caches lengthNorm by zapx's norm bits (the chunk length),
	// 0 where not yet known, for avgdl.
	norms []float64
	avgdl float64
	// lists (by query term, then segment) and it are kept from query
	// to query so that zapx can reuse their memory.
	lists []*zap.PostingsList
	it    *zap.PostingsIterator
}

var accumulators = sync.Pool{New: func() any { return new(accumulator) }}

// open reads the segments of snap (see size for the score arrays). ok
// is false if a segment is not a zapx v17 one.
func (a *accumulator) open(snap *scorch.IndexSnapshot) (ok bool, err error) {
	if snap == a.snap {
		return true, nil
	}
	a.snap = nil
	// The lists and iterator looked up in the old snapshot's segments
	// hold those segments' data: drop them, so that a merge's old
	// segments are not kept alive by a pooled scorer.
	clear(a.lists)
	a.it = nil
	a.segs = snap.Segments()
	a.dicts, a.offsets = a.dicts[:0], a.offsets[:0]
	var total uint64
	for _, s := range a.segs {
		td, err := s.Segment().Dictionary(fieldText)
		if err != nil {
			return false, err
		}
		d, ok := td.(*zap.Dictionary)
		if !ok {
			return false, nil
		}
		a.dicts = append(a.dicts, d)
		a.offsets = append(a.offsets, total)
		total += s.Segment().Count()
	}
	a.offsets = append(a.offsets, total)
	a.snap = snap
	return true, nil
}

// size makes the score arrays room for every chunk of the snapshot open
// read, which looking up postings alone (docFreqs) does not need.
func (a *accumulator) size() {
	if total := a.offsets[len(a.offsets)-1]; total > uint64(len(a.sum)) {
		a.sum = make([]float64, total)
		a.matched = make([]uint8, total)
		a.holds = make([]uint16, total)
	}
}

// setAvgdl readies the lengthNorm cache for avgdl.
func (a *accumulator) setAvgdl(avgdl float64) {
	if a.norms == nil || a.avgdl != avgdl {
		a.norms, a.avgdl = make([]float64, cachedNorms), avgdl
	}
}

// admit lists the chunks filter admits. bleve's searcher reports
// scorch's chunk numbers, which open's offsets reproduce.
func (a *accumulator) admit(ctx context.Context, snap *scorch.IndexSnapshot, m mapping.IndexMapping, filter query.Query) (err error) {
	s, err := filter.Searcher(ctx, snap, m, search.SearcherOptions{Score: "none"})
	if err != nil {
		return err
	}
	defer func() {
		if cerr := s.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	a.admitted = make([]uint64, (len(a.sum)+63)/64)
	sctx := &search.SearchContext{DocumentMatchPool: search.NewDocumentMatchPool(s.DocumentMatchPoolSize(), 0)}
	for i := 0; ; i++ {
		if i%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		dm, err := s.Next(sctx)
		if err != nil {
			return err
		}
		if dm == nil {
			return nil
		}
		d := binary.BigEndian.Uint64(dm.IndexInternalID)
		a.admitted[d/64] |= 1 << (d % 64)
		sctx.DocumentMatchPool.Put(dm)
	}
}

// postings fills t, the query's i-th term, with the term's postings
// lists, nil where a segment has none. zapx reuses the memory of the
// lists an earlier query looked up.
func (a *accumulator) postings(t *termScorer, i int, term string) error {
	n := len(a.segs)
	if need := (i + 1) * n; need > len(a.lists) {
		a.lists = append(a.lists, make([]*zap.PostingsList, need-len(a.lists))...)
	}
	t.lists, t.counts = make([]*zap.PostingsList, n), make([]uint64, n)
	for j, s := range a.segs {
		l, err := a.dicts[j].PostingsList([]byte(term), s.Deleted(), a.lists[i*n+j])
		if err != nil {
			return err
		}
		pl := l.(*zap.PostingsList)
		a.lists[i*n+j] = pl
		if c := pl.Count(); c > 0 {
			t.lists[j], t.counts[j] = pl, c
			t.df += c
		}
	}
	return nil
}

func (a *accumulator) add(doc uint64, t *termScorer, s float64) {
	if a.admitted != nil && a.admitted[doc/64]&(1<<(doc%64)) == 0 {
		return
	}
	if a.matched[doc] == 0 {
		a.touched = append(a.touched, doc)
		a.sum[doc], a.holds[doc] = s, t.bit // 0 + s, bit for bit
	} else {
		a.sum[doc] += s
		a.holds[doc] |= t.bit
	}
	a.matched[doc]++
}

// release clears what the query touched and returns a to the pool.
func (a *accumulator) release() {
	for _, d := range a.touched {
		a.matched[d] = 0
	}
	a.touched, a.cands, a.pruned, a.admitted = a.touched[:0], a.cands[:0], false, nil
	accumulators.Put(a)
}

// iterator returns an iterator over pl, reusing the last one's memory.
func (a *accumulator) iterator(pl *zap.PostingsList) *zap.PostingsIterator {
	a.it = pl.Iterator(true, true, false, a.it).(*zap.PostingsIterator)
	return a.it
}

// posting is what Next or Advance returned, as zapx's type: nil at the
// end of the postings.
func posting(p segment.Posting, err error) (*zap.Posting, error) {
	if p == nil || err != nil {
		return nil, err
	}
	return p.(*zap.Posting), nil
}

// cachedNorms is how many chunk lengths lengthNorm is cached for.
const cachedNorms = 1024

// lengthNorm is lengthNorm of p's norm, through a.norms: Norm's square
// root and the divisions are paid once for each chunk length, which is
// what zapx stores as the norm (NormUint64).
func (a *accumulator) lengthNorm(p *zap.Posting) float64 {
	if norm := p.NormUint64(); norm < uint64(len(a.norms)) {
		if a.norms[norm] == 0 { // lengthNorm is at least 1-b
			a.norms[norm] = lengthNorm(p.Norm(), a.avgdl)
		}
		return a.norms[norm]
	}
	return lengthNorm(p.Norm(), a.avgdl)
}

// scoreAll adds t's score to every chunk that holds it.
func (a *accumulator) scoreAll(ctx context.Context, t *termScorer) error {
	for i, pl := range t.lists {
		if pl == nil {
			continue
		}
		off := a.offsets[i]
		err := eachPosting(ctx, a.iterator(pl), func(p *zap.Posting) {
			a.add(off+p.Number(), t, t.score(p, a.lengthNorm(p)))
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// eachPosting calls fn with every posting it yields, looking at ctx every
// checkEvery postings.
func eachPosting(ctx context.Context, it *zap.PostingsIterator, fn func(*zap.Posting)) error {
	for j := 0; ; j++ {
		if j%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		p, err := posting(it.Next())
		if err != nil || p == nil {
			return err
		}
		fn(p)
	}
}

// final is d's score as bleve's disjunction gives it: the sum times the
// coordination factor, the share of the query's terms d holds.
func (a *accumulator) final(d uint64) float64 {
	return a.sum[d] * a.coords[a.matched[d]]
}

// kthOf is the k-th best final score among docs, when at least k of
// them score floor or more (ok); the others are not looked at further.
func (a *accumulator) kthOf(docs []uint64, k int, floor float64) (_ float64, ok bool) {
	a.scores = a.scores[:0]
	for _, d := range docs {
		if f := a.final(d); f >= floor {
			a.scores = append(a.scores, f)
		}
	}
	if len(a.scores) < k {
		return 0, false
	}
	return kth(a.scores, k), true
}

// prune decides whether the terms left, rest, can still bring a chunk
// not yet seen into the top k: such a chunk holds only terms of rest, so
// it scores less than len(rest)/terms x the sum of their bounds, r. When
// r is below theta, the k-th best score the chunks seen so far are sure
// of (their scores only grow), it returns theta and true. It looks only
// when the postings left outnumber the chunks seen, since only then does
// skipping to those chunks pay.
func (a *accumulator) prune(rest []termScorer, k int) (float64, bool) {
	var left uint64
	for i := range rest {
		left += rest[i].df
	}
	if left <= uint64(len(a.touched)) {
		return 0, false
	}
	r := bounds(rest) * a.coords[len(rest)]
	if theta, ok := a.kthOf(a.touched, k, r); ok && theta > r {
		return theta, true
	}
	return 0, false
}

// bounds is the sum of the bounds of ts.
func bounds(ts []termScorer) float64 {
	var b float64
	for i := range ts {
		b += ts[i].bound()
	}
	return b
}

// complete adds the scores of the terms left, rest, to the chunks seen
// that can still reach the top k, dropping the others: before each term
// it recomputes theta, the k-th best score already sure, and keeps the
// chunks whose bound reaches it. A term's postings are skipped through
// to the chunks kept when they are few, read in full otherwise.
func (a *accumulator) complete(ctx context.Context, rest []termScorer, theta float64, k int) error {
	a.pruned = true
	a.cands = a.sortDocs(a.cands[:0], a.touched)
	for i := range rest {
		if i > 0 {
			if own, ok := a.kthOf(a.cands, k, theta); ok {
				theta = own
			}
		}
		kept, b := a.cands[:0], bounds(rest[i:])
		for _, d := range a.cands {
			// d's bound: its partial sum plus the bounds of the terms
			// left, at the coordination factor it would then have.
			if m := a.matched[d]; (a.sum[d]+b)*a.coords[int(m)+len(rest)-i] >= theta {
				kept = append(kept, d)
			} else {
				a.matched[d] = 0 // out of the running
			}
		}
		a.cands = kept
		if err := a.scoreCands(ctx, &rest[i]); err != nil {
			return err
		}
	}
	return nil
}

// sortDocs appends docs, distinct chunk numbers, to dst in ascending
// order, through a bitmap of the chunks.
func (a *accumulator) sortDocs(dst, docs []uint64) []uint64 {
	if n := (len(a.sum) + 63) / 64; len(a.bits) < n {
		a.bits = make([]uint64, n)
	}
	for _, d := range docs {
		a.bits[d/64] |= 1 << (d % 64)
	}
	for i, w := range a.bits {
		for ; w != 0; w &= w - 1 {
			dst = append(dst, uint64(i*64+bits.TrailingZeros64(w)))
		}
		a.bits[i] = 0
	}
	return dst
}

// scoreCands adds t's score to the candidates that hold it.
func (a *accumulator) scoreCands(ctx context.Context, t *termScorer) error {
	cands := a.cands
	for i, pl := range t.lists {
		off, end := a.offsets[i], a.offsets[i+1]
		n := sort.Search(len(cands), func(j int) bool { return cands[j] >= end })
		in := cands[:n]
		cands = cands[n:]
		if len(in) == 0 || pl == nil {
			continue
		}
		it := a.iterator(pl)
		if uint64(skipRatio*len(in)) < t.counts[i] { // skip to each candidate
			var p *zap.Posting
			for j, d := range in {
				if j%checkEvery == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
				if p == nil || off+p.Number() < d {
					var err error
					if p, err = posting(it.Advance(d - off)); err != nil {
						return err
					}
					if p == nil {
						break
					}
				}
				if off+p.Number() == d {
					a.add(d, t, t.score(p, a.lengthNorm(p)))
				}
			}
			continue
		}
		err := eachPosting(ctx, it, func(p *zap.Posting) { // read all, keep the candidates
			if d := off + p.Number(); a.matched[d] > 0 {
				a.add(d, t, t.score(p, a.lengthNorm(p)))
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// best returns the k best chunks (of the candidates, when complete ran),
// ties broken by ordinal: every chunk tied with the k-th is resolved to
// its ordinal.
func (a *accumulator) best(k int, terms []string) ([]Hit, error) {
	docs := a.touched
	if a.pruned {
		docs = a.cands
	}
	type scored struct {
		doc   uint64
		score float64
	}
	cut, ok := a.kthOf(docs, k, math.Inf(-1))
	if !ok { // k or fewer: all of them
		cut = math.Inf(-1)
	}
	var top []scored
	for _, d := range docs {
		if s := a.final(d); s >= cut {
			top = append(top, scored{d, s})
		}
	}
	hits := make([]Hit, len(top))
	for i, s := range top {
		seg, _ := slices.BinarySearch(a.offsets, s.doc+1)
		seg--
		id, err := a.segs[seg].DocID(s.doc - a.offsets[seg])
		if err != nil {
			return nil, err
		}
		ord, err := decodeOrd(string(id))
		if err != nil {
			return nil, fmt.Errorf("chunk %d of segment %d: %w", s.doc-a.offsets[seg], seg, err)
		}
		hits[i] = Hit{Ord: ord, Score: s.score, Terms: terms, Holds: uint64(a.holds[s.doc])}
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Ord, b.Ord)
	})
	return hits[:min(k, len(hits))], nil
}
