package bm25

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
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
// (only stop words or punctuation) matches nothing, with or without
// filters; empty text is ErrEmptyQuery. k runs from 1 to MaxK.
func (ix *Index) Search(ctx context.Context, text string, k int, f base.Filter) (_ []Hit, err error) {
	defer recoverCorrupt("search", &err)
	if strings.TrimSpace(text) == "" {
		return nil, ErrEmptyQuery
	}
	if k < 1 || k > MaxK {
		return nil, fmt.Errorf("bm25: search: k = %d, want 1 to %d", k, MaxK)
	}
	filter, err := filterQuery(f)
	if err != nil {
		return nil, fmt.Errorf("bm25: search: %w", err)
	}
	terms := ix.an.text.Analyze([]byte(text))
	if len(terms) == 0 {
		return nil, nil // bleve would read a filter alone as "match all"
	}
	if filter == nil && len(terms) <= maxDirectTerms {
		words := make([]string, len(terms))
		for i, t := range terms {
			words[i] = string(t.Term)
		}
		hits, _, ok, err := ix.topK(ctx, words, k)
		if err != nil {
			return nil, fmt.Errorf("bm25: search: %w", err)
		}
		if ok {
			return hits, nil
		}
	}
	hits, err := ix.searchBleve(ctx, terms, k, f, filter)
	if err != nil {
		return nil, fmt.Errorf("bm25: search: %w", err)
	}
	return hits, nil
}

// searchBleve is Search through bleve's searchers: the path for filtered
// queries, queries of many terms and an index without length statistics.
func (ix *Index) searchBleve(ctx context.Context, terms analysis.TokenStream, k int, f base.Filter, filter query.Query) ([]Hit, error) {
	q := searchQuery(terms, filter)
	ctx, err := ix.withStats(ctx, f)
	if err != nil {
		return nil, err
	}

	// bleve breaks ties by its internal document numbers, which merges
	// reshuffle. So fetch a window of 2k by score: it nearly always holds
	// every hit tied with the k-th, and those we order by ordinal below.
	// Only when the tie runs past the window do we pay for a second pass
	// sorted by id, which loads the id of every matching chunk.
	window := 2 * k
	res, err := ix.bleve.SearchInContext(ctx, bleve.NewSearchRequestOptions(q, window, 0, false))
	if err != nil {
		return nil, err
	}
	found := res.Hits
	if len(found) == window && found[window-1].Score == found[k-1].Score {
		req := bleve.NewSearchRequestOptions(q, k, 0, false)
		req.SortBy([]string{"-_score", "_id"})
		if res, err = ix.bleve.SearchInContext(ctx, req); err != nil {
			return nil, err
		}
		found = res.Hits
	}
	if len(found) > k {
		cut := found[k-1].Score
		n := k
		for n < len(found) && found[n].Score == cut {
			n++
		}
		found = found[:n]
	}

	hits := make([]Hit, len(found))
	for i, h := range found {
		ord, err := decodeOrd(h.ID)
		if err != nil {
			return nil, err
		}
		hits[i] = Hit{Ord: ord, Score: h.Score}
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Ord, b.Ord)
	})
	return hits[:min(k, len(hits))], nil
}

// MaxK bounds the k of Search.
const MaxK = 100_000

// searchQuery ORs the query terms (a term repeated in the query counts
// twice, as in bleve's match query) and restricts them by the unscored
// filter, if any.
func searchQuery(terms analysis.TokenStream, filter query.Query) query.Query {
	tqs := make([]query.Query, len(terms))
	for i, t := range terms {
		tq := query.NewTermQuery(string(t.Term))
		tq.SetField(fieldText)
		tqs[i] = tq
	}
	match := query.NewDisjunctionQuery(tqs)
	match.SetMin(1)
	if filter == nil {
		return match
	}
	b := query.NewBooleanQuery(nil, nil, nil)
	b.Must = match
	b.AddFilter(filter)
	return b
}
