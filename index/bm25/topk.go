package bm25

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/scorer"
	"github.com/blevesearch/bleve/v2/search/searcher"
	zap "github.com/blevesearch/zapx/v17"

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
	if ok, err := acc.open(snap); err != nil || !ok {
		return nil, 0, false, err
	}
	acc.size()
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
		if err := acc.postings(&ts[i], i, t); err != nil {
			return nil, 0, false, err
		}
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

	acc.terms, acc.coords = len(ts), acc.coords[:0]
	for m := range len(ts) + 1 {
		acc.coords = append(acc.coords, float64(m)/float64(len(ts)))
	}
	acc.setAvgdl(avgdl)
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
	lists  []*zap.PostingsList // by segment, deleted chunks excepted; nil if none
	counts []uint64            // of lists' postings
	df     uint64              // live chunks that hold it
	idf    float64
	weight float64 // the query weight: idf x query norm
	bit    uint16  // the term's in Hit.Holds
}

// score is bleve's BM25 score of a posting, operation for operation
// (scorer.TermQueryScorer), so that sums come out bit-equal. lengthNorm
// is lengthNorm of the posting's norm.
func (t *termScorer) score(p *zap.Posting, lengthNorm float64) float64 {
	var tf float64
	if freq := p.Frequency(); freq < scorer.MaxSqrtCache {
		tf = scorer.SqrtCache[freq]
	} else {
		tf = math.Sqrt(float64(freq))
	}
	s := t.idf * (tf * search.BM25_k1) / (tf + search.BM25_k1*lengthNorm)
	if t.weight != 1 {
		s *= t.weight
	}
	return s
}

// lengthNorm is the part of score that depends on the chunk's length
// alone, from its norm, as bleve computes it.
func lengthNorm(norm, avgdl float64) float64 {
	fieldLength := 1 / (norm * norm)
	return 1 - search.BM25_b + (search.BM25_b * fieldLength / avgdl)
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
