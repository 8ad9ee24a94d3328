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

// Hit is one search result: a chunk ordinal and its BM25 score, and
// which of the query's terms the chunk holds: bit i of Holds stands for
// Terms[i], the query's distinct analysed terms in order of first
// occurrence, as Index.Terms gives them (the first 64 of them; one slice
// shared by all the hits of a search).
type Hit struct {
	Ord   uint64
	Score float64
	Terms []string
	Holds uint64
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
	if len(terms) <= maxDirectTerms {
		words := make([]string, len(terms))
		for i, t := range terms {
			words[i] = string(t.Term)
		}
		hits, _, ok, err := ix.topK(ctx, words, distinct(words), k, f, filter)
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
	// bleve does not say which terms a hit holds: read the postings.
	words := make([]string, len(terms))
	for i, t := range terms {
		words[i] = string(t.Term)
	}
	uniq := distinct(words)
	uniq = uniq[:min(len(uniq), 64)] // as many as Holds has bits
	ords := make([]uint64, len(hits))
	for i, h := range hits {
		ords[i] = h.Ord
	}
	holds, err := ix.Holds(ctx, uniq, ords)
	if err != nil {
		return nil, fmt.Errorf("bm25: search: %w", err)
	}
	for i := range hits {
		hits[i].Terms = uniq
		for j, ok := range holds[i] {
			if ok {
				hits[i].Holds |= 1 << j
			}
		}
	}
	return hits, nil
}

// distinct is words without repeats, in order of first occurrence.
func distinct(words []string) []string {
	var out []string
	for _, w := range words {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
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
