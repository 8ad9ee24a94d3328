package medkb

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/clinical"
	"github.com/medkb/medkb/internal/text"
	"github.com/medkb/medkb/store"
)

// preparer is the one way documents go into a store: Ingest (and so
// medkb ingest) and Rebuild prepare them here and commit them with
// DB.ingest. It checks, tiers, chunks, compresses and embeds, and reads
// each document's date once, for the store's vector slot and the BM25
// index alike (store.DocWrite.Day).
type preparer struct {
	tok         text.Tokenizer
	emb         embed.Embedder
	chunkTokens int
	// stored: the documents come from a store, where the checks of their
	// day admitted them; Rebuild carries them over without the input
	// checks of today (base.Doc.Validate), which may be stricter, and
	// checks only what the new store needs: a readable date and the
	// embedder's dimension.
	stored bool
}

// preparer is db's way of preparing input documents.
func (db *DB) preparer() *preparer {
	return &preparer{tok: db.tok, emb: db.emb, chunkTokens: db.opts.chunkTokens()}
}

// check returns the day d.Time names, or why d cannot be written.
func (p *preparer) check(d *base.Doc) (base.Day, error) {
	var day base.Day
	var err error
	if p.stored {
		if day, err = base.ParseDay(d.Time); err != nil {
			err = fmt.Errorf(`"time": %w`, err)
		}
	} else {
		day, err = d.ValidateDay()
	}
	if err != nil {
		return base.NoDay, err
	}
	return day, checkVector(d, p.emb.Name(), p.emb.Dim(), !p.stored)
}

// checkVector refuses a supplied vector of another dimension than the
// store's embedder, named name, or (when model is set) made by another
// model.
func checkVector(d *base.Doc, name string, dim int, model bool) error {
	if len(d.Vector) == 0 {
		return nil
	}
	if model && d.Embedder != name {
		return vectorModelError(d.Embedder, name)
	}
	if len(d.Vector) != dim {
		return fmt.Errorf(`"vector" has %d dimensions, the store's embedder %s has %d`, len(d.Vector), name, dim)
	}
	return nil
}

// vectorModelError refuses a supplied vector that did not say it was
// made by the store's model, want. A vector is compared with the query
// vectors of the store's embedder, so one of another model ranks noise
// without failing; its dimension catches only some of them. Stored
// documents (a rebuild) are exempt: a medkb before Doc.Embedder admitted
// vectors without it, and a rebuild to another embedder drops them.
func vectorModelError(given, want string) error {
	if given == "" {
		return fmt.Errorf(`"vector" does not say which model made it; the store's embedder is %s: add "embedder": %q if it made the vector`, want, want)
	}
	return fmt.Errorf(`"vector" was made by %s, the store's embedder is %s: their vectors cannot be compared`, given, want)
}

// batch prepares docs into the store write that commits them.
func (p *preparer) batch(ctx context.Context, docs []base.Doc, progress Progress) (*store.Batch, error) {
	puts, err := p.prepare(ctx, docs, progress)
	if err != nil {
		return nil, err
	}
	return &store.Batch{Put: puts, Embedder: p.emb.Name(), Dim: p.emb.Dim()}, nil
}

// prepare validates, tiers, chunks, compresses and embeds docs in
// parallel, in groups so an embedding endpoint sees batched requests.
func (p *preparer) prepare(ctx context.Context, docs []base.Doc, progress Progress) ([]store.DocWrite, error) {
	const group = 64
	out := make([]store.DocWrite, len(docs))
	errs := make([]error, len(docs))
	next := make(chan int)
	var done sync.WaitGroup
	var mu sync.Mutex
	finished := 0
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		done.Add(1)
		go func() {
			defer done.Done()
			for lo := range next {
				hi := min(lo+group, len(docs))
				if err := p.prepareGroup(ctx, docs[lo:hi], out[lo:hi], errs[lo:hi]); err != nil {
					errs[lo] = err
					cancel()
				}
				if progress != nil {
					mu.Lock()
					finished += hi - lo
					progress(finished, len(docs))
					mu.Unlock()
				}
			}
		}()
	}
feed:
	for lo := 0; lo < len(docs); lo += group {
		select {
		case next <- lo:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	done.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, &DocError{Index: i, ID: docs[i].ID, Err: err}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// prepareGroup fills out[i] for docs[i]; per-document problems go to errs.
func (p *preparer) prepareGroup(ctx context.Context, docs []base.Doc, out []store.DocWrite, errs []error) error {
	dim := p.emb.Dim()
	tok := &lastCount{tok: p.tok}
	var texts []string
	type pending struct {
		doc, chunk int
		b          bool
	}
	var owners []pending
	for i := range docs {
		d := docs[i]
		day, err := p.check(&d)
		if err != nil {
			errs[i] = err
			continue
		}
		tierGiven := d.Tier.Valid()
		given := d.Type != "" || tierGiven
		var docWhy clinical.Reason
		d.Tier, docWhy = clinical.Classify(d.Type, d.Tier, d.Text)
		if d.Lang == "" {
			d.Lang = text.Lang(d.Text)
		}
		w := store.DocWrite{Doc: d, Day: day, TierGiven: tierGiven}
		pieces := text.Chunk(d.Text, p.chunkTokens, tok)
		for _, piece := range pieces {
			// The chunk's own classification (type, else its text) says
			// whether it is permanent and, for an untyped note spanning
			// chunks, its tier: one CT mentioned in a long narrative must
			// not lift the whole note to T2.
			// Without a given tier, the document's classification is
			// already that of a chunk holding all its text.
			own, why := d.Tier, docWhy
			if tierGiven || piece != d.Text {
				own, why = clinical.Classify(d.Type, base.TierNone, piece)
			}
			c := base.Chunk{Tier: d.Tier, TierBy: docWhy.String(), Text: piece, TokensA: tok.Count(piece),
				Permanent: why.Permanent()}
			if !given && len(pieces) > 1 {
				c.Tier, c.TierBy, c.TierOwn = own, why.String(), true
			}
			c.Keys, c.TextB, c.TokensB, c.NEntity = clinical.KeysStateB(piece, c.Tier == base.T1 || c.Tier == base.T2, c.TokensA, tok.Count)
			c.NTotal = len(c.Keys)
			w.Chunks = append(w.Chunks, c)
			if len(d.Vector) == 0 {
				texts = append(texts, piece)
				owners = append(owners, pending{doc: i, chunk: len(w.Chunks) - 1})
			}
			if c.TextB != "" && len(d.Vector) == 0 {
				texts = append(texts, c.TextB)
				owners = append(owners, pending{doc: i, chunk: len(w.Chunks) - 1, b: true})
			}
		}
		w.Vectors = make([]float32, len(w.Chunks)*dim)
		if len(d.Vector) > 0 {
			v := append([]float32(nil), d.Vector...)
			if !vector.Normalize(v) {
				errs[i] = fmt.Errorf(`"vector" is all zeros`)
				continue
			}
			for c := range w.Chunks {
				copy(w.Vectors[c*dim:], v)
				if w.Chunks[c].TextB != "" {
					w.Chunks[c].VectorB = v
				}
			}
		}
		out[i] = w
	}
	if len(texts) == 0 {
		return nil
	}
	vecs, err := p.emb.Embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("embedding: %w", err)
	}
	for j, o := range owners {
		if errs[o.doc] != nil {
			continue
		}
		if o.b {
			out[o.doc].Chunks[o.chunk].VectorB = vecs[j]
		} else {
			copy(out[o.doc].Vectors[o.chunk*dim:], vecs[j])
		}
	}
	return nil
}

// lastCount is a Tokenizer that remembers its last count: text.Chunk
// counts a short document whole to see that it is one chunk, and the
// chunk's count is then that one.
type lastCount struct {
	tok  text.Tokenizer
	last string
	n    int
}

func (c *lastCount) Count(s string) int {
	if s != c.last || s == "" {
		c.last, c.n = s, c.tok.Count(s)
	}
	return c.n
}
