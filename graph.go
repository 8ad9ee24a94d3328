package medkb

import (
	"context"
	"fmt"

	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/store"
)

// IngestGraph stores entities and triples in one transaction (a triple
// already stored is kept once), after checking each as the graph readers
// do (graph.CheckEntity, graph.CheckTriple): a bad one fails the call and
// nothing is written. The in-memory graph that EXPAND traverses is opened
// again by the next query that needs it, or by OpenGraph, which saves
// its compact form for the next process (see graphfile.go).
func (db *DB) IngestGraph(ctx context.Context, ents []Entity, triples []Triple) (GraphChange, error) {
	if db.opts.ReadOnly {
		return GraphChange{}, store.ErrReadOnly
	}
	for i, e := range ents {
		if err := graph.CheckEntity(base.Entity(e)); err != nil {
			return GraphChange{}, fmt.Errorf("entity %d (%s %.60q): %w", i+1, e.Type, e.Name, err)
		}
	}
	for i, t := range triples {
		if err := graph.CheckTriple(base.Triple(t)); err != nil {
			return GraphChange{}, fmt.Errorf("triple %d (%.60q -%.60s-> %.60q): %w", i+1, t.Head, t.Relation, t.Tail, err)
		}
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
	gc, err := g.st.PutGraph(convert(ents, toBaseEntity), convert(triples, toBaseTriple))
	if err != nil {
		return GraphChange(gc), err
	}
	g.dropGraph()
	return GraphChange(gc), nil
}

// Entities returns every stored entity.
func (db *DB) Entities() ([]Entity, error) {
	g, release, err := db.snapshot()
	if err != nil {
		return nil, err
	}
	defer release()
	ents, err := g.st.LoadEntities()
	return convert(ents, fromBaseEntity), err
}

// HetionetIDs returns the index from Hetionet identifiers ("Gene::7") to
// the names of the stored entities they identify (graph.HetionetIDs),
// which graph.ReadHetionetEdges resolves an edge file's ids with: the
// node files ingested before it name the entities.
func (db *DB) HetionetIDs() (map[string]string, error) {
	g, release, err := db.snapshot()
	if err != nil {
		return nil, err
	}
	defer release()
	ents, err := g.st.LoadEntities()
	if err != nil {
		return nil, err
	}
	return graph.HetionetIDs(ents), nil
}
