package medkb

import (
	"context"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/store"
)

// GraphChange counts what IngestGraph added.
type GraphChange = store.GraphChange

// IngestGraph stores entities and triples in one transaction (a triple
// already stored is kept once). The in-memory graph that EXPAND traverses
// is built again from the store by the next query that needs it.
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
	defer release()
	gc, err := g.st.PutGraph(ents, triples)
	if err != nil {
		return gc, err
	}
	g.graph.Store(nil)
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
