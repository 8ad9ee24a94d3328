package main

import (
	"context"
	"os"
	"runtime/debug"

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

// batchWriter writes batches of documents in order, one transaction
// each. On a store this process opened it prepares a batch
// (medkb.DB.Prepare: checking, chunking, embedding, on every core)
// while the batch before it commits, which is mostly one index build;
// through a server each batch is one Ingest call.
type batchWriter struct {
	ctx  context.Context
	db   kb
	busy chan batchOutcome // the outcome of the batch committing; nil when none is
}

// bulkGC lets the heap grow to three times what is live instead of two
// for the length of a bulk write, unless $GOGC chooses: ingest allocates
// fast, and collecting half as often gave about 9% more documents a
// second on `bench ingest --n 100000` (1.0 GB resident instead of 0.7).
// The returned func restores the setting.
func bulkGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(200)
	return func() { debug.SetGCPercent(old) }
}

// preparedBatch is a batch ready for batchWriter.commit.
type preparedBatch struct {
	p        *medkb.Prepared // on a store this process opened
	docs     []medkb.Doc     // through a server
	progress medkb.Progress
}

type batchOutcome struct {
	out *medkb.IngestResult
	err error
}

// prepare readies docs for commit, telling progress how many are done:
// as they are prepared on a store this process opened, when the batch
// is committed through a server. Nothing is written.
func (w *batchWriter) prepare(docs []medkb.Doc, progress medkb.Progress) (*preparedBatch, error) {
	db, ok := w.db.(*medkb.DB)
	if !ok {
		return &preparedBatch{docs: docs, progress: progress}, nil
	}
	p, err := db.Prepare(w.ctx, docs, progress)
	if err != nil {
		return nil, err
	}
	return &preparedBatch{p: p}, nil
}

// commit starts committing b, which must follow wait: one batch
// commits at a time, in order. wait returns its outcome.
func (w *batchWriter) commit(b *preparedBatch) {
	w.busy = make(chan batchOutcome, 1)
	if b.p != nil {
		go func(done chan<- batchOutcome) {
			out, err := w.db.(*medkb.DB).Commit(w.ctx, b.p)
			done <- batchOutcome{out, err}
		}(w.busy)
		return
	}
	out, err := w.db.Ingest(w.ctx, b.docs)
	if err == nil && b.progress != nil {
		b.progress(out.Docs, len(b.docs))
	}
	w.busy <- batchOutcome{out, err}
}

// wait returns the outcome of the batch committing, (nil, nil) when
// none is.
func (w *batchWriter) wait() (*medkb.IngestResult, error) {
	if w.busy == nil {
		return nil, nil
	}
	o := <-w.busy
	w.busy = nil
	return o.out, o.err
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
