package medkb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/clinical"
	"github.com/medkb/medkb/internal/text"
	"github.com/medkb/medkb/store"
)

// DefaultRebuildGrace is how long Rebuild waits after switching CURRENT
// before it removes the generation it replaced.
const DefaultRebuildGrace = 2 * time.Second

// rebuildBatch is the number of documents per write of a rebuild: large
// enough to amortise a commit, small enough to keep memory flat.
const rebuildBatch = 1000

// RebuildOptions configure Rebuild. A nil *RebuildOptions means all
// defaults.
type RebuildOptions struct {
	// LockTimeout bounds the wait for the writer lock (an ingest or another
	// rebuild holding the store); zero means 10 s.
	LockTimeout time.Duration
	// Embedder re-embeds every chunk. Nil means the embedder the store
	// recorded. With another embedder (name or dimension), vectors supplied
	// at ingest are dropped, since they belong to the old model.
	Embedder embed.Embedder
	// EmbedServer serves the embedder the store recorded, when Embedder
	// is nil; see Options.EmbedServer.
	EmbedServer embed.OpenAIConfig
	// ChunkTokens caps a chunk's length in tokens; zero means 256.
	ChunkTokens int
	// Reclassify also re-classifies documents whose tier was given
	// explicitly at ingest. Zero: those keep their tier; every other
	// document is always re-classified by the current rules.
	Reclassify bool
	// Grace is how long to wait after the switch before removing the
	// replaced generation, so that a process that read CURRENT just before
	// the switch has opened it (and so protects it) or moved on. Zero
	// means DefaultRebuildGrace.
	Grace time.Duration
	// Progress is told how many documents are rebuilt; it may be nil.
	Progress Progress
}

// RebuildResult says what a Rebuild did.
type RebuildResult struct {
	From, To string // the replaced and the new generation
	Docs     int
	Chunks   int
	Entities int
	Triples  int
	// TierDiffers counts documents whose tier the current rules change.
	TierDiffers int
	// Removed lists the generations deleted (older ones no longer open,
	// leftovers of interrupted rebuilds); InUse those still open by some
	// process, which a later rebuild removes.
	Removed, InUse []string
	// backend is the store's retrieval backend, nil for the embedded
	// one: its alias is switched to To, its collections of the removed
	// generations dropped.
	backend *backendSpec
}

// ErrInconsistent is returned by Rebuild and Backup when what they built
// fails the consistency check; the live store is not changed.
var ErrInconsistent = errors.New("medkb: consistency check failed")

// Rebuild builds a new generation of the store in dir from its system of
// record (re-chunk, re-classify, re-embed, re-index, compact the BM25
// index), checks it, and switches CURRENT to it atomically. It takes the
// writer lock, so ingests wait for it (and it for them), but it only reads
// the live generation, with a shared lock: readers are never blocked and
// move to the new generation at their next query. Afterwards it removes
// the generations no process has open. An interrupted rebuild leaves the
// live generation untouched; the next one removes its leftovers. In a
// process that holds dir open read-write, Rebuild is that DB's
// (DB.Rebuild), whose writer lock it would otherwise wait for in vain.
//
// Rebuild never loses documents: it builds only from a live generation
// that passes its check (Store.Check: a damaged one would be copied as
// bbolt happens to read it, say without its last write, and then pruned),
// it switches only to a generation that holds exactly the documents,
// entities and triples the live one counts (ErrInconsistent otherwise),
// and it removes no generation when that
// could lose documents (store.ErrWouldLoseData: see WriterLock.Prune), so
// that a CURRENT naming an empty or damaged generation fails the rebuild
// before anything is built or removed.
func Rebuild(ctx context.Context, dir string, opts *RebuildOptions) (*RebuildResult, error) {
	if db := writerIn(dir); db != nil {
		return db.Rebuild(ctx, opts)
	}
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	lock, err := store.LockWriter(dir, o.LockTimeout)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	old, err := store.Open(dir, &store.Options{ReadOnly: true, LockTimeout: o.LockTimeout})
	if err != nil {
		return nil, err
	}
	res, err := build(ctx, lock, old, &o)
	if cerr := old.Close(); err == nil {
		err = cerr // our own shared lock would keep the old generation alive
	}
	if err != nil {
		return nil, err
	}
	if err := lock.Publish(res.To); err != nil {
		return nil, err
	}
	if err := publishBackend(ctx, res.backend, res.To); err != nil {
		return nil, fmt.Errorf("medkb: rebuilt and switched to %s, but: %w", res.To, err)
	}
	return res, prune(ctx, lock, res, &o)
}

// Rebuild is the package-level Rebuild through db. A read-only db calls
// it (db moves to the new generation at its next query). A read-write db
// rebuilds with the writer lock it holds, which the package-level Rebuild
// would wait for in vain: queries go on against the old generation, writes
// wait for the rebuild (writeMu); then db opens the new generation, before
// CURRENT names it so that no reader can hold it off, publishes it and
// moves to it once the queries in flight are done. opts.Embedder, when
// set, must be db's: a DB keeps its embedder for life (close it and use
// the package-level Rebuild to change it); nil means db's.
func (db *DB) Rebuild(ctx context.Context, opts *RebuildOptions) (*RebuildResult, error) {
	if db.opts.ReadOnly {
		return Rebuild(ctx, db.dir, opts)
	}
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if o.Embedder == nil {
		o.Embedder = db.emb
	} else if o.Embedder.Name() != db.emb.Name() || o.Embedder.Dim() != db.emb.Dim() {
		return nil, fmt.Errorf("%w: RebuildOptions.Embedder is %s (dim %d), the open store's %s (dim %d): "+
			"a DB keeps its embedder; close it and call the package-level Rebuild",
			store.ErrEmbedderMismatch, o.Embedder.Name(), o.Embedder.Dim(), db.emb.Name(), db.emb.Dim())
	}
	res, lock, err := db.rebuildAndSwitch(ctx, &o)
	if err != nil {
		return nil, err
	}
	return res, prune(ctx, lock, res, &o)
}

// rebuildAndSwitch builds the new generation from db's, holding writeMu
// for the whole build, and moves db to it; it returns the writer lock,
// which db holds on.
func (db *DB) rebuildAndSwitch(ctx context.Context, o *RebuildOptions) (*RebuildResult, *store.WriterLock, error) {
	db.writeMu.Lock()
	defer db.writeMu.Unlock()
	db.mu.RLock()
	old := db.cur
	db.mu.RUnlock()
	if old == nil {
		return nil, nil, ErrClosed
	}
	lock := old.st.Writer()
	res, err := build(ctx, lock, old.st, o)
	if err != nil {
		return nil, nil, err
	}
	st, err := lock.OpenGeneration(res.To, db.opts.LockTimeout)
	if err != nil {
		os.RemoveAll(filepath.Join(db.dir, res.To)) // never published; the next rebuild prunes it otherwise
		return nil, nil, err
	}
	g, err := db.attachStore(st)
	if err == nil {
		err = lock.Publish(res.To)
	}
	if err != nil {
		if g != nil {
			g.close()
		}
		return nil, nil, err
	}
	db.mu.Lock() // in-flight queries finish on old
	old.st.PassWriter(g.st)
	db.cur = g
	db.mu.Unlock()
	if err := old.close(); err != nil {
		return nil, nil, fmt.Errorf("medkb: rebuilt and moved to %s, but closing %s: %w", res.To, res.From, err)
	}
	if err := publishBackend(ctx, res.backend, res.To); err != nil {
		return nil, nil, fmt.Errorf("medkb: rebuilt and moved to %s, but: %w", res.To, err)
	}
	return res, lock, nil
}

// withDefaults validates opts and fills in the defaults Rebuild relies on.
func (opts *RebuildOptions) withDefaults() (RebuildOptions, error) {
	var o RebuildOptions
	if err := opts.Validate(); err != nil {
		return o, err
	}
	if opts != nil {
		o = *opts
	}
	if o.Grace <= 0 {
		o.Grace = DefaultRebuildGrace
	}
	return o, nil
}

// build checks the live generation old, prunes what earlier rebuilds
// left, and builds the new generation from old under lock, unpublished.
func build(ctx context.Context, lock *store.WriterLock, old *store.Store, o *RebuildOptions) (*RebuildResult, error) {
	if problems := old.Check(); len(problems) > 0 {
		return nil, fmt.Errorf("medkb: not rebuilding from generation %s, which fails its check with %d problem(s) (see medkb check); "+
			"restore a backup, or export what is readable into a new store: %w", old.Generation(), len(problems), problems[0])
	}
	removed, _, err := lock.Prune()
	if err != nil {
		return nil, err
	}
	res, err := buildGeneration(ctx, old, o)
	if err != nil {
		return nil, err
	}
	res.Removed = removed
	return res, nil
}

// prune waits out the grace period after the switch to res.To and then
// removes the generations no process has open.
func prune(ctx context.Context, lock *store.WriterLock, res *RebuildResult, o *RebuildOptions) error {
	select {
	case <-time.After(o.Grace):
	case <-ctx.Done():
		return nil // switched; the next rebuild prunes
	}
	more, inUse, err := lock.Prune()
	res.Removed, res.InUse = append(res.Removed, more...), inUse
	return errors.Join(err, dropBackend(ctx, res.backend, res.Removed))
}

// buildGeneration writes a new, checked generation from old and closes
// it; on failure it removes what it wrote.
func buildGeneration(ctx context.Context, old *store.Store, o *RebuildOptions) (res *RebuildResult, err error) {
	m, err := old.Meta()
	if err != nil {
		return nil, err
	}
	emb, sameEmbedder := o.Embedder, true
	if emb == nil {
		if emb, err = chooseEmbedder(nil, m, o.EmbedServer); err != nil {
			return nil, err
		}
	} else {
		sameEmbedder = m.Embedder == "" || (emb.Name() == m.Embedder && emb.Dim() == m.Dim)
	}
	tok, err := text.NewTokenizer()
	if err != nil {
		return nil, err
	}
	spec, err := backendOf(m)
	if err != nil {
		return nil, err
	}
	st, err := store.CreateGeneration(old.Dir())
	if err != nil {
		return nil, err
	}
	if err := st.SetBackend(m.Backend); err != nil { // before attach, which fills the new generation's collection
		st.Close()
		os.RemoveAll(st.GenDir())
		return nil, err
	}
	// The new generation is not CURRENT yet, so Open cannot open it:
	// a DB on it is put together here and attached as Open attaches.
	nb := &DB{dir: old.Dir(), tok: tok, emb: emb, cur: &generation{st: st},
		opts: Options{LockTimeout: o.LockTimeout, Embedder: emb, ChunkTokens: o.ChunkTokens}}
	defer func() {
		if cerr := nb.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.RemoveAll(st.GenDir()) // best effort; the next rebuild prunes it otherwise
		}
	}()
	if err := nb.attach(nb.cur); err != nil {
		return nil, err
	}
	if err := nb.cur.queryErr(); err != nil {
		return nil, err // the new index could not be made (a full disk)
	}
	res = &RebuildResult{From: old.Generation(), To: st.Generation(), backend: spec}
	prep := nb.preparer()
	prep.stored = true
	c := &docCopy{from: old, to: nb, prep: prep, total: m.Docs, opts: o, sameEmbedder: sameEmbedder, res: res}
	if err := c.run(ctx); err != nil {
		return nil, err
	}
	ents, triples, err := old.LoadGraph()
	if err != nil {
		return nil, err
	}
	if len(ents)+len(triples) > 0 {
		if _, err := st.PutGraph(ents, triples); err != nil {
			return nil, err
		}
	}
	if err := nb.cur.bm.Compact(ctx); err != nil {
		return nil, err
	}
	if err := nb.verify(); err != nil {
		return nil, fmt.Errorf("medkb: rebuilt generation %s: %w", res.To, err)
	}
	nm, err := st.Meta()
	if err != nil {
		return nil, err
	}
	if nm.Docs != m.Docs || nm.Entities != m.Entities || nm.Triples != m.Triples {
		return nil, fmt.Errorf("%w: rebuilt generation %s has %d documents, %d entities, %d triples; %s counts %d, %d, %d: not switching to it",
			ErrInconsistent, res.To, nm.Docs, nm.Entities, nm.Triples, res.From, m.Docs, m.Entities, m.Triples)
	}
	if err := st.SetFrom(res.From); err != nil {
		return nil, err
	}
	if err := st.SetQuantize(m.Quantize); err != nil { // the new generation holds its slab as the old did
		return nil, err
	}
	res.Docs, res.Chunks, res.Entities, res.Triples = nm.Docs, nm.Chunks, nm.Entities, nm.Triples
	return res, ctx.Err() // cancelled now: do not switch
}

// docCopy re-ingests every document of one generation into another.
type docCopy struct {
	from         *store.Store
	to           *DB
	prep         *preparer // to's, carrying stored records over
	total        int       // documents in from, for progress
	opts         *RebuildOptions
	sameEmbedder bool // supplied vectors stay valid
	res          *RebuildResult
}

// run copies in batches, from one read transaction of c.from.
func (c *docCopy) run(ctx context.Context) error {
	batch := make([]base.Doc, 0, rebuildBatch)
	done := 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		res, err := c.to.ingest(ctx, c.prep, batch, nil)
		if err == nil {
			err = res.IndexErr
		}
		if err != nil {
			return fmt.Errorf("medkb: rebuild: %w", err)
		}
		done += len(batch)
		batch = batch[:0]
		if c.opts.Progress != nil {
			c.opts.Progress(done, c.total)
		}
		return nil
	}
	err := c.from.ForEachDoc(func(d *base.Doc, info store.DocInfo) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch = append(batch, c.prepare(*d, info.TierGiven))
		if len(batch) < rebuildBatch {
			return nil
		}
		return flush()
	})
	if err != nil {
		return err
	}
	return flush()
}

// prepare turns a stored document back into ingest input: a classified
// tier is cleared so the ingest path classifies it again with the current
// rules; a given tier stays unless Reclassify.
func (c *docCopy) prepare(d base.Doc, tierGiven bool) base.Doc {
	if !tierGiven || c.opts.Reclassify {
		if tier, _ := clinical.Classify(d.Type, base.TierNone, d.Text); tier != d.Tier {
			c.res.TierDiffers++
		}
		d.Tier = base.TierNone
	}
	if !c.sameEmbedder {
		d.Vector, d.Embedder = nil, ""
	}
	return d
}
