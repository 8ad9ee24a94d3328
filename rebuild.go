package medkb

import (
	"context"
	"errors"
	"fmt"
	"os"
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
// live generation untouched; the next one removes its leftovers.
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
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	var o RebuildOptions
	if opts != nil {
		o = *opts
	}
	if o.Grace <= 0 {
		o.Grace = DefaultRebuildGrace
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
	if problems := old.Check(); len(problems) > 0 {
		old.Close()
		return nil, fmt.Errorf("medkb: not rebuilding from generation %s, which fails its check with %d problem(s) (see medkb check); "+
			"restore a backup, or export what is readable into a new store: %w", old.Generation(), len(problems), problems[0])
	}
	removed, _, err := lock.Prune()
	if err != nil {
		old.Close()
		return nil, err
	}
	res, err := buildGeneration(ctx, old, &o)
	if cerr := old.Close(); err == nil {
		err = cerr // our own shared lock would keep the old generation alive
	}
	if err != nil {
		return nil, err
	}
	if err := lock.Publish(res.To); err != nil {
		return nil, err
	}
	res.Removed = removed
	select {
	case <-time.After(o.Grace):
	case <-ctx.Done():
		return res, nil // switched; the next rebuild prunes
	}
	more, inUse, err := lock.Prune()
	res.Removed, res.InUse = append(res.Removed, more...), inUse
	return res, err
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
	st, err := store.CreateGeneration(old.Dir())
	if err != nil {
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
	res = &RebuildResult{From: old.Generation(), To: st.Generation()}
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
