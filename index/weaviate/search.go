package weaviate

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	wv "github.com/weaviate/weaviate-go-client/v5/weaviate"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/graphql"

	"github.com/medkb/medkb/internal/base"
)

// readConsistency is what a read asks for: one replica, so that a query
// goes on while other replicas are down (and does not wait for them).
const readConsistency = "ONE"

// MaxK bounds k of one search (Weaviate's QUERY_MAXIMUM_RESULTS default).
const MaxK = 10000

// Hit is one retrieved chunk: its ordinal and its score (BM25, or the
// dot product of the vectors).
type Hit struct {
	Ord   uint64
	Score float64
}

// ErrEmptyQuery is returned by SearchBM25 for empty query text.
var ErrEmptyQuery = errors.New("weaviate: empty query")

// SearchBM25 returns the k best chunks for text among those f admits, by
// Weaviate's BM25 over the terms property. The text is analysed here as
// the embedded index analyses it (bm25.Analyzer) and its distinct terms
// are sent, OR-ed; text without any term matches nothing.
func (ix *Index) SearchBM25(ctx context.Context, text string, k int, f base.Filter) ([]Hit, error) {
	if strings.TrimSpace(text) == "" {
		return nil, ErrEmptyQuery
	}
	terms := ix.an.Terms(text)
	if len(terms) == 0 {
		return nil, nil
	}
	bm := (&graphql.BM25ArgumentBuilder{}).WithQuery(strings.Join(terms, " ")).WithProperties(propTerms)
	return ix.search(ctx, "bm25", k, f, func(s *graphql.Search) *graphql.Search { return s.WithBM25(bm) }, false)
}

// SearchVector returns the k chunks among those f admits whose vectors
// have the largest dot product with vec: exact with a flat index,
// approximate with HNSW.
func (ix *Index) SearchVector(ctx context.Context, vec []float32, k int, f base.Filter) ([]Hit, error) {
	nv := (&graphql.NearVectorArgumentBuilder{}).WithVector(vec)
	return ix.search(ctx, "nearVector", k, f, func(s *graphql.Search) *graphql.Search { return s.WithNearVector(nv) }, true)
}

// search runs one search on the first node that answers and returns its
// hits by descending score, ties by ascending ordinal. byDistance reads
// the score as the negated distance (dot distance is -dot).
func (ix *Index) search(ctx context.Context, what string, k int, f base.Filter, with func(*graphql.Search) *graphql.Search, byDistance bool) ([]Hit, error) {
	if k < 1 || k > MaxK {
		return nil, fmt.Errorf("weaviate: %s: k = %d, want 1 to %d", what, k, MaxK)
	}
	w, err := where(f)
	if err != nil {
		return nil, err
	}
	var res []graphql.SearchResult
	err = ix.c.do(ctx, what+" on "+ix.opts.Collection, func(cl *wv.Client) (err error) {
		s := cl.Experimental().Search().WithCollection(ix.opts.Collection).WithLimit(k).
			WithConsistencyLevel(readConsistency).WithProperties(propOrd).
			WithMetadata(&graphql.Metadata{Score: !byDistance, Distance: byDistance})
		if w != nil {
			s = s.WithWhere(w)
		}
		res, err = with(s).Do(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	hits := make([]Hit, len(res))
	for i, r := range res {
		ord, err := ordOf(r.Properties)
		if err != nil {
			return nil, fmt.Errorf("weaviate: %s: object %s: %w", what, r.ID, err)
		}
		hits[i] = Hit{Ord: ord, Score: float64(r.Metadata.Score)}
		if byDistance {
			hits[i].Score = -float64(r.Metadata.Distance)
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Ord < hits[j].Ord
	})
	return hits, nil
}

// ordOf reads the ord property of a result, whichever number type the
// client decoded it as.
func ordOf(props map[string]any) (uint64, error) {
	switch v := props[propOrd].(type) {
	case int64:
		return uint64(v), nil
	case float64:
		return uint64(v), nil
	case int:
		return uint64(v), nil
	}
	return 0, fmt.Errorf("no ordinal (ord is %T)", props[propOrd])
}

// Ords lists the ordinals the collection holds as node n (an index into
// Options.Nodes) serves them at consistency ONE, in pages, for a check
// that a replica holds every chunk of the store.
func (ix *Index) Ords(ctx context.Context, n int) ([]uint64, error) {
	if n < 0 || n >= len(ix.c.clients) {
		return nil, fmt.Errorf("weaviate: node %d of %d", n, len(ix.c.clients))
	}
	var ords []uint64
	after := ""
	for {
		var res []graphql.SearchResult
		err := ix.c.on(n, "listing "+ix.opts.Collection, func(cl *wv.Client) (err error) {
			res, err = cl.Experimental().Search().WithCollection(ix.opts.Collection).WithLimit(MaxK).WithAfter(after).
				WithConsistencyLevel(readConsistency).WithProperties(propOrd).WithMetadata(&graphql.Metadata{ID: true}).Do(ctx)
			return err
		})
		if err != nil {
			return nil, err
		}
		for _, r := range res {
			ord, err := ordOf(r.Properties)
			if err != nil {
				return nil, fmt.Errorf("weaviate: listing: object %s: %w", r.ID, err)
			}
			ords = append(ords, ord)
		}
		if len(res) < MaxK {
			return ords, nil
		}
		after = res[len(res)-1].ID
	}
}
