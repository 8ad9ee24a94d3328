package medkb

import (
	"context"

	"github.com/medkb/medkb/dsl"
	"github.com/medkb/medkb/index/bm25"
	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/planner"
)

// MaxQueryBytes bounds one statement; a longer one is a parse error.
const MaxQueryBytes = dsl.MaxStatementBytes

// Params gives the named parameters of a statement their values, by name
// without the $: a string, or a number of any Go integer or float type.
// The values are bound after parsing, where the statement holds $name,
// and are never spliced into its text, so a value cannot change what the
// statement says. A statement's parameters and the names in Params must
// match exactly, or the query fails with a positioned *dsl.Error.
type Params map[string]any

// Query runs one RETRIEVE statement. ctx bounds it: cancellation or a
// deadline stops it within milliseconds in whatever stage it is, with a
// *planner.StageError that names the stage.
func (db *DB) Query(ctx context.Context, src string) (*Result, error) {
	return db.QueryParams(ctx, src, nil)
}

// QueryParams runs one RETRIEVE statement with named parameters:
//
//	db.QueryParams(ctx, `RETRIEVE $q WHERE patient = $p`, medkb.Params{"q": "chest pain", "p": "A100"})
func (db *DB) QueryParams(ctx context.Context, src string, params Params) (*Result, error) {
	g, release, err := db.snapshot()
	if err != nil {
		return nil, err
	}
	defer release()
	bm, done, err := db.index(g)
	if err != nil {
		return nil, err
	}
	defer done()
	res, err := planner.Run(ctx, db.env(g, bm), src, dsl.Args(params))
	return newResult(res), err
}

// Explain returns the plan of a statement without running it (with
// EXPLAIN ANALYZE in the statement, it runs and reports).
func (db *DB) Explain(ctx context.Context, src string) (string, error) {
	return db.ExplainParams(ctx, src, nil)
}

// ExplainParams is Explain for a statement with named parameters; the
// plan lists them with their values.
func (db *DB) ExplainParams(ctx context.Context, src string, params Params) (string, error) {
	g, release, err := db.snapshot()
	if err != nil {
		return "", err
	}
	defer release()
	p, err := planner.Compile(ctx, src, dsl.Args(params), db.env(g, nil)) // planning reads no index
	if err != nil {
		return "", err
	}
	if !p.Query.Analyze {
		return p.Explain(nil), nil
	}
	bm, done, err := db.index(g)
	if err != nil {
		return "", err
	}
	defer done()
	res, err := p.Execute(ctx, db.env(g, bm))
	if err != nil {
		return "", err
	}
	return res.Plan, nil
}

// env is what the planner reads: g, with bm its BM25 index (from index).
func (db *DB) env(g *generation, bm *bm25.Index) *planner.Env {
	return &planner.Env{Store: g.st, BM25: bm, Vectors: g.vec, Backend: g.backend(), Graph: g.loadGraph, Embedder: db.emb,
		Count: db.tok.Count, VectorWeight: embed.FusionWeight(db.emb), Reranker: db.opts.Reranker}
}
