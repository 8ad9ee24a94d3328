package bm25

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/medkb/medkb/internal/text"
)

// Term is one distinct analysed term of a text (a Porter stem, a number, a
// CJK bigram) with DF, the number of indexed chunks whose text holds it.
type Term struct {
	Text string
	DF   uint64
	// CJK is true for a CJK bigram (or a lone CJK character).
	CJK bool
}

// Terms analyses s as Search does and returns its distinct terms in
// order of first occurrence.
func (ix *Index) Terms(s string) []string {
	return distinctTerms(ix.an.text, s)
}

// QueryTerms returns the distinct terms of s (Terms) with their
// document frequencies, and the number of indexed chunks, all read from one
// snapshot of the index. The frequencies count chunks of every patient: they
// say how informative a term is in the store, whatever the query's filter.
func (ix *Index) QueryTerms(ctx context.Context, s string) (_ []Term, chunks uint64, err error) {
	defer recoverCorrupt("query terms", &err)
	terms := ix.Terms(s)
	adv, err := ix.bleve.Advanced()
	if err != nil {
		return nil, 0, fmt.Errorf("bm25: query terms: %w", err)
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, 0, fmt.Errorf("bm25: query terms: %w", err)
	}
	defer func() {
		if cerr := r.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("bm25: query terms: %w", cerr)
		}
	}()
	if chunks, err = r.DocCount(); err != nil {
		return nil, 0, fmt.Errorf("bm25: query terms: %w", err)
	}
	out := make([]Term, len(terms))
	for i, t := range terms {
		out[i] = Term{Text: t, CJK: isCJK(t)}
	}
	if err := docFreqs(ctx, r, out); err != nil {
		return nil, 0, fmt.Errorf("bm25: query terms: %w", err)
	}
	return out, chunks, nil
}

// docFreqs sets the DF of terms from r. On a scorch snapshot of zapx
// segments it looks each term up in the segments' dictionaries, as Search
// does, through a pooled accumulator. A term field reader for each term,
// which made an iterator on every segment that nothing read, had made a
// topic's frequencies (the planner weighs every query's topic) cost
// about a quarter of the BM25 arm's CPU.
func docFreqs(ctx context.Context, r index.IndexReader, terms []Term) error {
	if snap, ok := r.(*scorch.IndexSnapshot); ok {
		acc := accumulators.Get().(*accumulator)
		defer acc.release()
		ok, err := acc.open(snap)
		if err != nil {
			return err
		}
		if ok {
			for i := range terms {
				var t termScorer
				if err := acc.postings(&t, 0, terms[i].Text); err != nil {
					return err
				}
				terms[i].DF = t.df
			}
			return nil
		}
	}
	for i := range terms {
		tfr, err := r.TermFieldReader(ctx, []byte(terms[i].Text), fieldText, false, false, false)
		if err != nil {
			return err
		}
		terms[i].DF = tfr.Count()
		if err := tfr.Close(); err != nil {
			return err
		}
	}
	return nil
}

// Holds reports which chunks' indexed text holds which terms: out[i][j]
// is true when chunk ords[i] holds terms[j] (analysed terms, as Terms
// returns them). A chunk not in the index holds none. It reads the
// postings of each term once, skipping to the chunks asked about, so it
// costs about a posting lookup per chunk and term rather than a
// re-analysis of each chunk's text.
func (ix *Index) Holds(ctx context.Context, terms []string, ords []uint64) (_ [][]bool, err error) {
	defer recoverCorrupt("holds", &err)
	out := make([][]bool, len(ords))
	for i := range out {
		out[i] = make([]bool, len(terms))
	}
	if len(terms) == 0 || len(ords) == 0 {
		return out, nil
	}
	adv, err := ix.bleve.Advanced()
	if err != nil {
		return nil, fmt.Errorf("bm25: holds: %w", err)
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, fmt.Errorf("bm25: holds: %w", err)
	}
	defer func() {
		if cerr := r.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("bm25: holds: %w", cerr)
		}
	}()
	type chunk struct {
		at int
		id index.IndexInternalID
	}
	chunks := make([]chunk, 0, len(ords))
	for i, ord := range ords {
		id, err := r.InternalID(encodeOrd(ord))
		if err != nil {
			return nil, fmt.Errorf("bm25: holds: %w", err)
		}
		if id != nil {
			chunks = append(chunks, chunk{i, id})
		}
	}
	slices.SortFunc(chunks, func(a, b chunk) int { return bytes.Compare(a.id, b.id) })
	var doc index.TermFieldDoc
	for j, t := range terms {
		tfr, err := r.TermFieldReader(ctx, []byte(t), fieldText, false, false, false)
		if err != nil {
			return nil, fmt.Errorf("bm25: holds: %w", err)
		}
		for _, c := range chunks {
			got, err := tfr.Advance(c.id, &doc)
			if err != nil {
				_ = tfr.Close()
				return nil, fmt.Errorf("bm25: holds: %w", err)
			}
			if got == nil {
				break // no later chunk holds the term
			}
			out[c.at][j] = bytes.Equal(got.ID, c.id)
		}
		if err := tfr.Close(); err != nil {
			return nil, fmt.Errorf("bm25: holds: %w", err)
		}
	}
	return out, nil
}

// isCJK reports whether a term is made of CJK characters (the analyzer's
// bigrams).
func isCJK(t string) bool {
	for _, r := range t {
		if !text.IsCJK(r) {
			return false
		}
	}
	return t != ""
}
