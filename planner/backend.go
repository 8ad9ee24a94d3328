package planner

import (
	"context"

	"github.com/medkb/medkb/dsl"
	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/internal/base"
)

// Backend is where the two retrieval arms search: BM25 with the query
// text, the vector arm with the query's embedding, each with the arm's
// filter pushed down and its limit (RetrieveNode.Filter, K, and for the
// embedded vector arm Residual and Scan). It returns ordinals and scores
// in rank order, ties by ascending ordinal; fusion, expansion, packing
// and EXPLAIN are the planner's whatever the backend.
//
// The embedded backend (Env.Backend nil) is the store's own bleve index
// and vector slab. Another one (medkb's Weaviate backend) serves both arms
// from elsewhere; the planner still reads the embedded indexes for
// everything but retrieval (term statistics, vectors for PACK).
type Backend interface {
	// Name is what EXPLAIN names on each Retrieve line ("on=NAME"); ""
	// for the embedded backend, whose plans say nothing.
	Name() string
	// PushesMeta reports whether the vector arm evaluates meta.KEY
	// conditions itself; when not, the planner post-filters them
	// (RetrieveNode.Residual).
	PushesMeta() bool
	SearchBM25(ctx context.Context, q string, a RetrieveNode) ([]Hit, error)
	SearchVector(ctx context.Context, qvec []float32, a RetrieveNode) ([]Hit, error)
}

// backend is env's Backend, the embedded one when none is set.
func (env *Env) backend() Backend {
	if env.Backend != nil {
		return env.Backend
	}
	return embedded{env}
}

// embedded is the Backend of env's own BM25 index and vector slab.
type embedded struct{ env *Env }

func (embedded) Name() string     { return "" }
func (embedded) PushesMeta() bool { return false }

func (e embedded) SearchBM25(ctx context.Context, q string, a RetrieveNode) ([]Hit, error) {
	hs, err := e.env.BM25.Search(ctx, q, a.K, a.Filter)
	if err != nil {
		return nil, err
	}
	out := make([]Hit, len(hs))
	for i, h := range hs {
		out[i] = Hit{Ord: h.Ord, Score: h.Score, held: heldTerms{h.Terms, h.Holds}}
	}
	return out, nil
}

// SearchVector scans the slab; it does not look at ctx.
func (e embedded) SearchVector(_ context.Context, qvec []float32, a RetrieveNode) ([]Hit, error) {
	match, err := compileSlotFilter(a.Filter, e.env.Store.DictID)
	if err != nil {
		return nil, err
	}
	scan := vector.ScanF32
	if a.Scan == dsl.ScanInt8 {
		scan = vector.ScanInt8
	}
	hs, err := e.env.Vectors.SearchWith(qvec, a.fetch(), match, scan)
	if err != nil {
		return nil, err
	}
	out := make([]Hit, 0, len(hs))
	for _, h := range hs {
		out = append(out, Hit{Ord: h.Ord, Score: float64(h.Score)})
	}
	if len(a.Residual) == 0 {
		return out, nil
	}
	return e.postFilter(out, a.Residual, a.K)
}

// postFilter keeps the hits whose documents satisfy the meta conditions,
// up to k of them.
func (e embedded) postFilter(hits []Hit, f base.Filter, k int) ([]Hit, error) {
	ords := make([]uint64, len(hits))
	for i, h := range hits {
		ords[i] = h.Ord
	}
	chunks, err := e.env.Store.Chunks(ords)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(chunks))
	for i, c := range chunks {
		if c != nil {
			ids[i] = c.Doc
		}
	}
	docs, err := e.env.Store.Docs(ids)
	if err != nil {
		return nil, err
	}
	out := hits[:0]
	for i, h := range hits {
		if docs[i] != nil && metaMatches(docs[i].Meta, f) && len(out) < k {
			out = append(out, h)
		}
	}
	return out, nil
}
