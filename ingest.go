package medkb

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/medkb/medkb/index/bm25"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/store"
)

// DocError is an ingest failure caused by one document.
type DocError struct {
	Index int // position in the slice given to Ingest
	ID    string
	Err   error
}

func (e *DocError) Error() string {
	return fmt.Sprintf("document %d (%q): %v", e.Index+1, e.ID, e.Err)
}

func (e *DocError) Unwrap() error { return e.Err }

// IngestResult says what an Ingest committed.
type IngestResult struct {
	Docs    int    // documents written (replaced ones included)
	Chunks  int    // chunks written
	Deleted int    // chunks of replaced documents removed
	Seq     uint64 // the store's write sequence after the commit
	// IndexErr is set when the write was committed but the derived
	// indexes could not follow it (the BM25 index on a full disk:
	// ErrIndexBehind). The write is durable and stats, show and export
	// see it; queries fail with IndexErr until the index catches up, at
	// the next write or read-write open (`medkb check`).
	IndexErr error
}

// Progress is told how many of total documents are prepared; it may be nil.
type Progress func(done, total int)

// bm25Batch bounds one bleve batch, to keep memory flat on large ingests.
const bm25Batch = 2000

// Ingest upserts docs by id in one atomic write: after an error nothing
// was committed. A failure after the commit is not an error of Ingest but
// IngestResult.IndexErr.
func (db *DB) Ingest(ctx context.Context, docs []Doc) (*IngestResult, error) {
	return db.IngestProgress(ctx, docs, nil)
}

// IngestProgress is Ingest with a progress callback.
func (db *DB) IngestProgress(ctx context.Context, docs []Doc, progress Progress) (*IngestResult, error) {
	return db.ingest(ctx, db.preparer(), convert(docs, toBaseDoc), progress)
}

// Prepared is a batch of documents that Prepare has checked, tiered,
// chunked, compressed and embedded, ready for Commit; nothing of it is
// written yet.
type Prepared struct {
	db    *DB
	batch *store.Batch
	used  atomic.Bool
}

// Prepare does everything Ingest does to docs before writing them, and
// writes nothing: Ingest is Prepare then Commit. A writer of many batches
// prepares the next while the previous one commits, so both cores stay
// busy (preparing is parallel; a commit is mostly one index build).
// Prepare is safe beside Commit and queries; its errors are Ingest's.
func (db *DB) Prepare(ctx context.Context, docs []Doc, progress Progress) (*Prepared, error) {
	if db.opts.ReadOnly {
		return nil, store.ErrReadOnly
	}
	b, err := db.preparer().batch(ctx, convert(docs, toBaseDoc), progress)
	if err != nil {
		return nil, err
	}
	return &Prepared{db: db, batch: b}, nil
}

// Commit writes a batch Prepare made, in one atomic write, as Ingest
// does. A batch commits once, into the DB that prepared it; after an
// error nothing was written and it may be committed again.
func (db *DB) Commit(ctx context.Context, p *Prepared) (*IngestResult, error) {
	if p == nil || p.db != db {
		return nil, errors.New("medkb: Commit of a batch another DB prepared")
	}
	if p.used.Swap(true) {
		return nil, errors.New("medkb: Commit of a batch already committed, or committing")
	}
	res, err := db.commitPuts(ctx, p.batch)
	if err != nil {
		p.used.Store(false)
	}
	return res, err
}

// ingest prepares docs with p and commits them: the write of every
// document, Ingest's and Rebuild's (whose p carries stored records over).
func (db *DB) ingest(ctx context.Context, p *preparer, docs []base.Doc, progress Progress) (*IngestResult, error) {
	if db.opts.ReadOnly {
		return nil, store.ErrReadOnly
	}
	b, err := p.batch(ctx, docs, progress)
	if err != nil {
		return nil, err
	}
	return db.commitPuts(ctx, b)
}

// commitPuts commits a batch of prepared documents.
func (db *DB) commitPuts(ctx context.Context, b *store.Batch) (*IngestResult, error) {
	ch, indexErr, err := db.commit(ctx, b)
	if err != nil {
		return nil, err
	}
	return &IngestResult{Docs: len(b.Put), Chunks: len(ch.Added), Deleted: len(ch.Deleted), Seq: ch.Seq, IndexErr: indexErr}, nil
}

// DeleteResult says what a Delete committed.
type DeleteResult struct {
	Docs   int    // documents removed; an id not stored counts for nothing
	Chunks int    // their chunks, removed from the store and every index
	Seq    uint64 // the store's write sequence after the commit
	// IndexErr is set when the write was committed but the derived
	// indexes could not follow it, as IngestResult.IndexErr.
	IndexErr error
}

// Delete removes documents by id from the store and every index; like
// Ingest, an error means nothing was committed.
func (db *DB) Delete(ctx context.Context, ids []string) (*DeleteResult, error) {
	ch, indexErr, err := db.commit(ctx, &store.Batch{Delete: ids})
	if err != nil {
		return nil, err
	}
	return &DeleteResult{Docs: ch.DeletedDocs, Chunks: len(ch.Deleted), Seq: ch.Seq, IndexErr: indexErr}, nil
}

// commit is the one path of every document write: one store transaction,
// then the derived indexes. Writes serialise on writeMu; documents are
// prepared before it, so preparing one batch overlaps committing another.
// err means nothing was committed; indexErr that the write was committed
// and the derived indexes could not follow (see doc.go, "The BM25 index").
func (db *DB) commit(ctx context.Context, b *store.Batch) (ch *store.Change, indexErr, err error) {
	if db.opts.ReadOnly {
		return nil, nil, store.ErrReadOnly
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	db.writeMu.Lock()
	defer db.writeMu.Unlock()
	g, release, err := db.snapshot()
	if err != nil {
		return nil, nil, err
	}
	defer release()
	// Only this writer changes g.bm of a read-write DB, so it reads it
	// without g.bmMu. A usable index is at the store's sequence; without
	// one, the whole replay log is kept.
	bm, have := g.bm, uint64(0)
	if bm != nil {
		if have, err = bm.Seq(); err != nil {
			g.dropIndex(damaged(g.st, err))
			bm, have = nil, 0
		}
	}
	if b.PruneLogThrough, err = g.logKeep(have); err != nil {
		return nil, nil, err
	}
	if ch, err = g.st.Write(b); err != nil {
		return nil, nil, err
	}
	g.applyVectors(ch)
	switch {
	case bm != nil:
		if err := applyBM25(bm, ch); err != nil {
			if errors.Is(err, bm25.ErrCorrupt) {
				err = damaged(g.st, err)
			} else {
				err = behind(g.st, have, ch.Seq, err)
			}
			g.dropIndex(err)
		}
	case errors.Is(g.bmErr, ErrIndexBehind):
		// A write before this one failed to reach the index: try again,
		// from what the index persisted, without a full rebuild.
		db.openIndex(g, false)
	}
	if g.remote != nil {
		db.syncBackend(ctx, g)
	}
	return ch, g.queryErr(), nil
}

// applyVectors applies a committed write to the in-memory vector slab.
func (g *generation) applyVectors(ch *store.Change) {
	g.vec.Kill(ch.Deleted)
	slots := make([]base.Slot, len(ch.Added))
	for i, a := range ch.Added {
		slots[i] = a.Slot
	}
	if err := g.vec.Append(slots, ch.Vectors); err != nil {
		g.bmMu.Lock()
		g.vecErr = fmt.Errorf("medkb: the vector slab no longer mirrors the store after write %d (reopen the store): %w", ch.Seq, err)
		g.bmMu.Unlock()
	}
}

// applyBM25 applies ch in bounded batches (bm25.Index.ApplyBatches);
// only the last records ch.Seq, so an interruption leaves the index at
// the sequence it had and the next open replays.
func applyBM25(bm *bm25.Index, ch *store.Change) error {
	adds := make([]bm25.Doc, len(ch.Added))
	for i, a := range ch.Added {
		adds[i] = bm25Doc(a)
	}
	return bm.ApplyBatches(ch.Seq, ch.Deleted, adds, bm25Batch)
}

func bm25Doc(a store.Added) bm25.Doc {
	txt := a.Chunk.Text
	if h := a.Doc.Heading(); h != "" {
		txt = h + "\n" + txt
	}
	return bm25.Doc{
		Ord: a.Chunk.Ord, Doc: a.Doc.ID, Text: txt, Tier: a.Chunk.Tier,
		Type: a.Doc.Type, Patient: a.Doc.Patient, Source: a.Doc.Source, Evidence: a.Doc.Evidence,
		Lang: a.Doc.Lang, Time: a.Day, Meta: a.Doc.Meta,
	}
}

// CheckDoc returns the error Ingest would reject d with, or nil: a field
// over its limit or unreadable (see Doc), and a vector that another
// model than the store's embedder made (or that names none; see
// Doc.Embedder) or of another dimension. A caller can check a whole
// input before writing any of it.
func (db *DB) CheckDoc(d *Doc) error {
	_, err := db.preparer().check((*base.Doc)(d))
	return err
}

// CheckDocFor is CheckDoc for a store that st describes (its Stats, from
// a Client): what a client checks before it sends documents to a server,
// which checks them again. A store without documents yet (st.Embedder "")
// has not fixed its embedder, so the vector is then left to the server.
func CheckDocFor(d *Doc, st *Stats) error {
	b := (*base.Doc)(d)
	if _, err := b.ValidateDay(); err != nil || st.Embedder == "" {
		return err
	}
	return checkVector(b, st.Embedder, st.Dim, true)
}
