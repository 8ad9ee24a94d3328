package bm25

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/scorer"
	"github.com/blevesearch/bleve/v2/search/searcher"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/medkb/medkb/internal/base"
)

// maxDirectTerms is the most query terms topK scores itself: beyond it
// bleve's disjunction switches to a heap, which adds the terms' scores
// in another order (see doc.go, "Top k").
var maxDirectTerms = searcher.DisjunctionHeapTakeover

// topK scores a query of at most maxDirectTerms terms itself, term at a
// time over the segments' postings, with bleve's BM25 arithmetic in
// bleve's order, skipping what cannot reach the top k (see doc.go, "Top
// k"). It returns the k best chunks among those filter (f as a bleve
// query) admits, all when f is empty, ties broken by ordinal. ok is false
// when the index has no length statistics yet, is not a scorch index, or
// the filter is not known to be selective (selective), so that the caller
// lets bleve score.
//
// skipped is how many of the query's terms had their postings read only
// for the chunks that could still make the top k.
//
// uniq is terms without repeats (distinct), for the hits' Terms.
func (ix *Index) topK(ctx context.Context, terms, uniq []string, k int, f base.Filter, filter query.Query) (_ []Hit, skipped int, ok bool, err error) {
	n, avgdl, ok, err := ix.scoringStats()
	if err != nil || !ok {
		return nil, 0, false, err
	}
	adv, err := ix.bleve.Advanced()
	if err != nil {
		return nil, 0, false, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, 0, false, err
	}
	defer func() {
		if cerr := r.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil, 0, false, nil
	}

	acc := accumulators.Get().(*accumulator)
	defer acc.release()
	if err := acc.open(snap); err != nil {
		return nil, 0, false, err
	}
	if len(f) > 0 {
		if ok, err := selective(ctx, snap, f, n); err != nil || !ok {
			return nil, 0, false, err
		}
		if err := acc.admit(ctx, snap, ix.bleve.Mapping(), filter); err != nil {
			return nil, 0, false, err
		}
	}
	// One scorer per query term, ordered as bleve's disjunction orders
	// its searchers: by document frequency, stably (bleve sorts fewer
	// than 12 by insertion).
	ts := make([]termScorer, len(terms))
	for i, t := range terms {
		if err := acc.postings(&ts[i], t); err != nil {
			return nil, 0, false, err
		}
		ts[i].avgdl = avgdl
		ts[i].bit = 1 << slices.Index(uniq, t)
	}
	slices.SortStableFunc(ts, func(a, b termScorer) int { return cmp.Compare(a.df, b.df) })
	var sumSquares float64
	for i := range ts {
		df := float64(ts[i].df)
		ts[i].idf = math.Log(1 + (float64(n)-df+0.5)/(df+0.5))
		sumSquares += ts[i].idf * ts[i].idf // (boost 1 x idf)^2
	}
	norm := 1 / math.Sqrt(sumSquares)
	for i := range ts {
		ts[i].weight = ts[i].idf * norm
	}

	acc.terms = len(ts)
	for j := range ts {
		if j > 0 {
			if theta, ok := acc.prune(ts[j:], k); ok {
				if err := acc.complete(ctx, ts[j:], theta, k); err != nil {
					return nil, 0, false, err
				}
				skipped = len(ts) - j
				break
			}
		}
		if err := acc.scoreAll(ctx, &ts[j]); err != nil {
			return nil, 0, false, err
		}
	}
	hits, err := acc.best(k, uniq)
	return hits, skipped, err == nil, err
}

// scoringStats returns what withStats hands bleve, as bleve reads it: the
// live chunk count and avgdl, ceil(cardinality / count). ok is false
// without length statistics.
func (ix *Index) scoringStats() (n uint64, avgdl float64, ok bool, err error) {
	ix.statsMu.Lock()
	st := ix.stats
	ix.statsMu.Unlock()
	if st.docs == 0 || st.tokens == 0 {
		return 0, 0, false, nil
	}
	if n, err = ix.bleve.DocCount(); err != nil || n == 0 {
		return 0, 0, false, err
	}
	return n, math.Ceil(float64(cardinality(st, n)) / float64(n)), true, nil
}

// cardinality is the text field's cardinality withStats gives bleve for
// n live chunks.
func cardinality(st lengthStats, n uint64) int {
	return int(math.Round(float64(st.tokens) / float64(st.docs) * float64(n)))
}

// termScorer is one query term: its postings in each segment and its
// part of the score.
type termScorer struct {
	lists  []segment.PostingsList // by segment, deleted chunks excepted
	df     uint64                 // live chunks that hold it
	idf    float64
	weight float64 // the query weight: idf x query norm
	avgdl  float64
	bit    uint16 // the term's in Hit.Holds
}

// score is bleve's BM25 score of a posting, operation for operation
// (scorer.TermQueryScorer), so that sums come out bit-equal.
func (t *termScorer) score(p segment.Posting) float64 {
	var tf float64
	if freq := p.Frequency(); freq < scorer.MaxSqrtCache {
		tf = scorer.SqrtCache[freq]
	} else {
		tf = math.Sqrt(float64(freq))
	}
	norm := p.Norm()
	fieldLength := 1 / (norm * norm)
	s := t.idf * (tf * search.BM25_k1) /
		(tf + search.BM25_k1*(1-search.BM25_b+(search.BM25_b*fieldLength/t.avgdl)))
	if t.weight != 1 {
		s *= t.weight
	}
	return s
}

// bound is more than t's score in any chunk: tf x k1 / (tf + k1 x
// length part) stays below k1 whatever tf and the length. The margin
// covers rounding.
func (t *termScorer) bound() float64 {
	return t.idf * search.BM25_k1 * t.weight * (1 + 1e-9)
}

// maxFilterShare is the largest share of the chunks a filter may admit
// for topK to score the query: it lists the admitted chunks first, which
// for a broad filter costs more than bleve's way of checking the filter
// for each chunk that holds a query term.
const maxFilterShare = 0.25

// selective reports whether f surely admits at most maxFilterShare of the
// n live chunks: it has an = or IN condition on a keyword field (the
// patient, the tier) whose values the postings give to at most that many
// chunks. Time ranges and != are not counted, since building their
// searchers costs as much as a search.
func selective(ctx context.Context, snap *scorch.IndexSnapshot, f base.Filter, n uint64) (bool, error) {
	for _, c := range f {
		if c.Field == fieldTime || c.Op != base.OpEq && c.Op != base.OpIn {
			continue
		}
		var admits uint64
		for _, v := range c.Values {
			tfr, err := snap.TermFieldReader(ctx, []byte(v), c.Field, false, false, false)
			if err != nil {
				return false, err
			}
			admits += tfr.Count()
			if err := tfr.Close(); err != nil {
				return false, err
			}
		}
		if float64(admits) <= maxFilterShare*float64(n) {
			return true, nil
		}
	}
	return false, nil
}

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
// it) plus the chunk's number in the segment.
type accumulator struct {
	segs    []*scorch.SegmentSnapshot
	dicts   []segment.TermDictionary // of the text field, by segment
	offsets []uint64                 // by segment
	terms   int                      // in the query
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
}

var accumulators = sync.Pool{New: func() any { return new(accumulator) }}

// open reads the segments of snap and sizes the score arrays.
func (a *accumulator) open(snap *scorch.IndexSnapshot) error {
	a.segs = snap.Segments()
	a.dicts, a.offsets = a.dicts[:0], a.offsets[:0]
	var total uint64
	for _, s := range a.segs {
		d, err := s.Segment().Dictionary(fieldText)
		if err != nil {
			return err
		}
		a.dicts = append(a.dicts, d)
		a.offsets = append(a.offsets, total)
		total += s.Segment().Count()
	}
	if total > uint64(len(a.sum)) {
		a.sum = make([]float64, total)
		a.matched = make([]uint8, total)
		a.holds = make([]uint16, total)
	}
	return nil
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

// postings fills t with the term's postings lists.
func (a *accumulator) postings(t *termScorer, term string) error {
	t.lists = make([]segment.PostingsList, len(a.segs))
	for i, s := range a.segs {
		pl, err := a.dicts[i].PostingsList([]byte(term), s.Deleted(), nil)
		if err != nil {
			return err
		}
		t.lists[i] = pl
		t.df += pl.Count()
	}
	return nil
}

func (a *accumulator) add(doc uint64, t *termScorer, s float64) {
	if a.admitted != nil && a.admitted[doc/64]&(1<<(doc%64)) == 0 {
		return
	}
	if a.matched[doc] == 0 {
		a.touched = append(a.touched, doc)
	}
	a.sum[doc] += s
	a.matched[doc]++
	a.holds[doc] |= t.bit
}

// release clears what the query touched and returns a to the pool.
func (a *accumulator) release() {
	for _, d := range a.touched {
		a.sum[d], a.matched[d], a.holds[d] = 0, 0, 0
	}
	a.touched, a.cands, a.pruned, a.segs, a.dicts = a.touched[:0], a.cands[:0], false, nil, a.dicts[:0]
	a.admitted = nil
	accumulators.Put(a)
}

// scoreAll adds t's score to every chunk that holds it.
func (a *accumulator) scoreAll(ctx context.Context, t *termScorer) error {
	for i, pl := range t.lists {
		off := a.offsets[i]
		err := eachPosting(ctx, pl.Iterator(true, true, false, nil), func(p segment.Posting) {
			a.add(off+p.Number(), t, t.score(p))
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// eachPosting calls fn with every posting it yields, looking at ctx every
// checkEvery postings.
func eachPosting(ctx context.Context, it segment.PostingsIterator, fn func(segment.Posting)) error {
	for j := 0; ; j++ {
		if j%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		p, err := it.Next()
		if err != nil || p == nil {
			return err
		}
		fn(p)
	}
}

// final is d's score as bleve's disjunction gives it: the sum times the
// coordination factor, the share of the query's terms d holds.
func (a *accumulator) final(d uint64) float64 {
	coord := float64(a.matched[d]) / float64(a.terms)
	return a.sum[d] * coord
}

// kthOf is the k-th best final score among docs (at least k of them).
func (a *accumulator) kthOf(docs []uint64, k int) float64 {
	a.scores = a.scores[:0]
	for _, d := range docs {
		a.scores = append(a.scores, a.final(d))
	}
	return kth(a.scores, k)
}

// prune decides whether the terms left, rest, can still bring a chunk
// not yet seen into the top k: such a chunk holds only terms of rest, so
// it scores less than len(rest)/terms x the sum of their bounds. When
// that is below theta, the k-th best score the chunks seen so far are
// sure of (their scores only grow), it returns theta and true. It looks
// only when the postings left outnumber the chunks seen, since only then
// does skipping to those chunks pay.
func (a *accumulator) prune(rest []termScorer, k int) (float64, bool) {
	if len(a.touched) < k {
		return 0, false
	}
	var left uint64
	for i := range rest {
		left += rest[i].df
	}
	if left <= uint64(len(a.touched)) {
		return 0, false
	}
	theta := a.kthOf(a.touched, k)
	return theta, reach(rest, 0, 0, a.terms) < theta
}

// reach bounds the final score of a chunk with partial sum sum over
// matched terms that may also hold every term of rest.
func reach(rest []termScorer, sum float64, matched, terms int) float64 {
	for i := range rest {
		sum += rest[i].bound()
	}
	return sum * (float64(matched+len(rest)) / float64(terms))
}

// complete adds the scores of the terms left, rest, to the chunks seen
// that can still reach the top k, dropping the others: before each term
// it recomputes theta, the k-th best score already sure, and keeps the
// chunks whose bound reaches it. A term's postings are skipped through
// to the chunks kept when they are few, read in full otherwise.
func (a *accumulator) complete(ctx context.Context, rest []termScorer, theta float64, k int) error {
	a.pruned = true
	if len(a.touched) > len(a.matched)/16 { // cheaper to scan than to sort
		a.cands = a.cands[:0]
		for d, m := range a.matched {
			if m > 0 {
				a.cands = append(a.cands, uint64(d))
			}
		}
	} else {
		a.cands = append(a.cands[:0], a.touched...)
		slices.Sort(a.cands)
	}
	for i := range rest {
		if i > 0 {
			theta = max(theta, a.kthOf(a.cands, k))
		}
		kept := a.cands[:0]
		for _, d := range a.cands {
			if reach(rest[i:], a.sum[d], int(a.matched[d]), a.terms) >= theta {
				kept = append(kept, d)
			} else {
				a.matched[d] = 0 // out of the running; release still clears it
			}
		}
		a.cands = kept
		if err := a.scoreCands(ctx, &rest[i]); err != nil {
			return err
		}
	}
	return nil
}

// scoreCands adds t's score to the candidates that hold it.
func (a *accumulator) scoreCands(ctx context.Context, t *termScorer) error {
	cands := a.cands
	for i, pl := range t.lists {
		off, end := a.offsets[i], uint64(math.MaxUint64)
		if i+1 < len(a.offsets) {
			end = a.offsets[i+1]
		}
		n := sort.Search(len(cands), func(j int) bool { return cands[j] >= end })
		in := cands[:n]
		cands = cands[n:]
		if len(in) == 0 {
			continue
		}
		it := pl.Iterator(true, true, false, nil)
		if uint64(skipRatio*len(in)) < pl.Count() { // skip to each candidate
			var p segment.Posting
			for j, d := range in {
				if j%checkEvery == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
				if p == nil || off+p.Number() < d {
					var err error
					if p, err = it.Advance(d - off); err != nil {
						return err
					}
					if p == nil {
						break
					}
				}
				if off+p.Number() == d {
					a.add(d, t, t.score(p))
				}
			}
			continue
		}
		err := eachPosting(ctx, it, func(p segment.Posting) { // read all, keep the candidates
			if d := off + p.Number(); a.matched[d] > 0 {
				a.add(d, t, t.score(p))
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
	var cut float64
	if len(docs) > k {
		cut = a.kthOf(docs, k)
	}
	var top []scored
	for _, d := range docs {
		if s := a.final(d); len(docs) <= k || s >= cut {
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

// kth returns the k-th largest of xs (1-based, k <= len(xs)), reordering
// xs (quickselect).
func kth(xs []float64, k int) float64 {
	lo, hi, want := 0, len(xs)-1, k-1
	for lo < hi {
		p := xs[(lo+hi)/2]
		i, j := lo, hi
		for i <= j {
			for xs[i] > p {
				i++
			}
			for xs[j] < p {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case want <= j:
			hi = j
		case want >= i:
			lo = i
		default:
			return xs[want]
		}
	}
	return xs[want]
}
