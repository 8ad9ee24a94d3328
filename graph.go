package medkb

import (
	"context"

	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/store"
)

// GraphChange counts what IngestGraph added.
type GraphChange = store.GraphChange

// IngestGraph stores entities and triples in one transaction (a triple
// already stored is kept once) and rebuilds the in-memory graph that
// EXPAND traverses.
func (db *DB) IngestGraph(ctx context.Context, ents []base.Entity, triples []base.Triple) (GraphChange, error) {
	if db.opts.ReadOnly {
		return GraphChange{}, store.ErrReadOnly
	}
	if err := ctx.Err(); err != nil {
		return GraphChange{}, err
	}
	db.writeMu.Lock()
	defer db.writeMu.Unlock()
	g, release, err := db.snapshot()
	if err != nil {
		return GraphChange{}, err
	}
	gc, err := g.st.PutGraph(ents, triples)
	release()
	if err != nil {
		return gc, err
	}
	allEnts, allTriples, err := g.st.LoadGraph()
	if err != nil {
		return gc, err
	}
	built := graph.Build(allEnts, allTriples)
	db.mu.Lock()
	if db.cur == g {
		g.graphOnce.Do(func() {}) // what loadGraph would build is built
		g.graph, g.graphErr = built, nil
	}
	db.mu.Unlock()
	return gc, nil
}

// Entities returns every stored entity (for resolving Hetionet ids).
func (db *DB) Entities() ([]base.Entity, error) {
	g, release, err := db.snapshot()
	if err != nil {
		return nil, err
	}
	defer release()
	return g.st.LoadEntities()
}
