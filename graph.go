package medkb

import (
	"context"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/store"
)

// GraphChange counts what IngestGraph added.
type GraphChange = store.GraphChange

// IngestGraph stores entities and triples in one transaction (a triple
// already stored is kept once) and rebuilds the in-memory graph that
// EXPAND traverses, saving its compact form for the next process (see
// graphfile.go).
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
	built, note, err := buildGraph(ctx, g.st)
	if err != nil {
		return gc, err
	}
	db.mu.Lock()
	if db.cur == g {
		g.setGraph(built, note)
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
