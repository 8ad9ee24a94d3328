package main

import (
	"context"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/graph"
)

// What an ingest needs beyond kb: a store this process opened does it
// with its *medkb.DB; through a server, the client's side does what it
// can and the server the rest.

// docChecker returns the check of the first pass over a document file:
// DB.CheckDoc on a store this process opened; through a server,
// medkb.CheckDocFor against the served store's stats st (the document's
// own fields, and a vector's model and dimension once the store has an
// embedder); the server checks again on writing.
func docChecker(db kb, st *medkb.Stats) func(*medkb.Doc) error {
	if db, ok := db.(*medkb.DB); ok {
		return db.CheckDoc
	}
	return func(d *medkb.Doc) error { return medkb.CheckDocFor(d, st) }
}

// ingestBatch writes one batch of documents, telling progress how many
// are done: as they are on a store this process opened, at the end of
// the batch through a server.
func (r *ingestRun) ingestBatch(ctx context.Context, docs []medkb.Doc, progress medkb.Progress) (*medkb.IngestResult, error) {
	if db, ok := r.db.(*medkb.DB); ok {
		return db.IngestProgress(ctx, docs, progress)
	}
	out, err := r.db.Ingest(ctx, docs)
	if err == nil {
		progress(out.Docs, len(docs))
	}
	return out, err
}

// hetionetIDs reads the stored entities' Hetionet ids, which a Hetionet
// edge file's ids resolve against. A server does not serve the entities,
// so through one the file is rejected.
func (r *ingestRun) hetionetIDs(in input) (map[string]string, error) {
	db, ok := r.db.(*medkb.DB)
	if !ok {
		return nil, reject("%s rejected, nothing ingested: a %s file resolves its ids against the stored entities, "+
			"which the server holding %s does not serve; stop the server and ingest it directly", in.label(), graph.KindHetionetEdges, r.env.db)
	}
	return db.HetionetIDs()
}

// ingestServerHelp is what differs when a server holds the store.
const ingestServerHelp = `Through a server, a Hetionet edge file is rejected: its ids resolve against
the stored entities, which a server does not serve.`
