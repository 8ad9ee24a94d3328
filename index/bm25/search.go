package bm25

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/medkb/medkb/internal/base"
)

// Hit is one search result: a chunk ordinal and its BM25 score.
type Hit struct {
	Ord   uint64
	Score float64
}

// Search returns the k best chunks for text among those matching f, by
// BM25 score, ties broken by ascending ordinal. Text is analysed like the
// indexed text and its terms are OR-ed. Text without any indexable term
// (only stop words or punctuation) matches nothing; empty text is
// ErrEmptyQuery, with or without filters.
func (ix *Index) Search(ctx context.Context, text string, k int, f base.Filter) ([]Hit, error) {
	if strings.TrimSpace(text) == "" {
		return nil, ErrEmptyQuery
	}
	if k < 1 {
		return nil, fmt.Errorf("bm25: search: k = %d, want at least 1", k)
	}
	q, err := searchQuery(text, f)
	if err != nil {
		return nil, fmt.Errorf("bm25: search: %w", err)
	}
	if ctx, err = ix.withStats(ctx, f); err != nil {
		return nil, fmt.Errorf("bm25: search: %w", err)
	}

	// Fast path: rank by score alone and fetch one extra hit. If it ties
	// with the k-th, the cut falls inside a tie, and only then do we pay for
	// sorting the candidates by id.
	req := bleve.NewSearchRequestOptions(q, k+1, 0, false)
	res, err := ix.bleve.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("bm25: search: %w", err)
	}
	if len(res.Hits) > k && res.Hits[k-1].Score == res.Hits[k].Score {
		req = bleve.NewSearchRequestOptions(q, k, 0, false)
		req.SortBy([]string{"-_score", "_id"})
		if res, err = ix.bleve.SearchInContext(ctx, req); err != nil {
			return nil, fmt.Errorf("bm25: search: %w", err)
		}
	}

	hits := make([]Hit, 0, min(k, len(res.Hits)))
	for _, h := range res.Hits[:min(k, len(res.Hits))] {
		ord, err := decodeOrd(h.ID)
		if err != nil {
			return nil, fmt.Errorf("bm25: search: %w", err)
		}
		hits = append(hits, Hit{Ord: ord, Score: h.Score})
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Ord, b.Ord)
	})
	return hits, nil
}

// searchQuery is the scored match query on the text, restricted by the
// unscored filter.
func searchQuery(text string, f base.Filter) (query.Query, error) {
	match := query.NewMatchQuery(text)
	match.SetField(fieldText)
	match.Analyzer = textAnalyzer
	filter, err := filterQuery(f)
	if err != nil {
		return nil, err
	}
	if filter == nil {
		return match, nil
	}
	b := query.NewBooleanQuery(nil, nil, nil)
	b.Must = match
	b.AddFilter(filter)
	return b, nil
}
