package bm25

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/search"

	"github.com/medkb/medkb/internal/base"
)

// lengthStats estimates the mean analysed length of the text field (BM25's
// avgdl) from every chunk ever indexed: deleted and replaced chunks keep
// counting, which is harmless for a mean over a slowly changing corpus.
//
// bleve 2.6 derives avgdl as ceil(distinct terms / documents), a vocabulary
// ratio rather than a length (often 1 to 5 where real chunks run 30 to 150
// tokens), which turns BM25's length normalisation into a steep penalty
// on long chunks. Search hands bleve the statistics below instead.
type lengthStats struct {
	tokens uint64 // analysed tokens of the text field, summed
	docs   uint64 // chunks analysed
}

func (s lengthStats) encode() []byte {
	b := make([]byte, 16)
	binary.BigEndian.PutUint64(b, s.tokens)
	binary.BigEndian.PutUint64(b[8:], s.docs)
	return b
}

func decodeLengthStats(b []byte) (lengthStats, error) {
	switch len(b) {
	case 0:
		return lengthStats{}, nil
	case 16:
		return lengthStats{binary.BigEndian.Uint64(b), binary.BigEndian.Uint64(b[8:])}, nil
	}
	return lengthStats{}, fmt.Errorf("%w: length statistics of %d bytes", ErrCorrupt, len(b))
}

// add returns s with the chunks whose token streams are given added.
func (s lengthStats) add(streams []analysis.TokenStream) lengthStats {
	for _, ts := range streams {
		s.tokens += uint64(len(ts))
	}
	s.docs += uint64(len(streams))
	return s
}

// analyzed is an analysis.Analyzer that hands back a token stream computed
// beforehand, so that Apply analyses each text once and knows its length
// before the batch is written.
type analyzed analysis.TokenStream

func (a analyzed) Analyze([]byte) analysis.TokenStream { return analysis.TokenStream(a) }

// analyze runs the text analyzer over the texts of adds on all CPUs,
// each with its own memoAnalyzer.
func (an analyzers) analyze(adds []Doc) []analysis.TokenStream {
	streams := make([]analysis.TokenStream, len(adds))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(adds)) {
		wg.Go(func() {
			text := memoAnalyzer(an.text)
			for i := next.Add(1) - 1; i < int64(len(adds)); i = next.Add(1) - 1 {
				streams[i] = text.Analyze([]byte(adds[i].Text))
			}
		})
	}
	wg.Wait()
	return streams
}

// withStats returns ctx carrying corpus statistics for BM25 scoring: the
// live chunk count and a field cardinality from which bleve's formula,
// ceil(cardinality / count), yields our avgdl (rounded up to a whole
// token). bleve insists on an entry for every field a query touches, so
// the filter fields get one too, as does the pseudo-field scorch gives the
// merged postings of an unscored AND or OR; those searchers do not score,
// so the value does not matter. Without statistics (a new or empty index)
// ctx is returned as is.
func (ix *Index) withStats(ctx context.Context, f base.Filter) (context.Context, error) {
	ix.statsMu.Lock()
	st := ix.stats
	ix.statsMu.Unlock()
	if st.docs == 0 || st.tokens == 0 {
		return ctx, nil
	}
	n, err := ix.bleve.DocCount()
	if err != nil || n == 0 {
		return ctx, err
	}
	avgdl := float64(st.tokens) / float64(st.docs)
	card := map[string]int{fieldText: int(math.Round(avgdl * float64(n)))}
	for _, c := range f {
		card[c.Field] = 1
	}
	card[scorch.OptimizeTFRConjunctionUnadornedField] = 1
	card[scorch.OptimizeTFRDisjunctionUnadornedField] = 1
	return context.WithValue(ctx, search.BM25StatsKey, &search.BM25Stats{
		DocCount:         float64(n),
		FieldCardinality: card,
	}), nil
}
