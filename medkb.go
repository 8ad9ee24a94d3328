package medkb

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/medkb/medkb/index/bm25"
	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/text"
	"github.com/medkb/medkb/store"
)

// DB is an open medkb store.
type DB struct {
	dir  string
	opts Options
	tok  text.Tokenizer
	emb  embed.Embedder

	writeMu sync.Mutex   // one writer at a time
	mu      sync.RWMutex // guards cur against a generation switch
	cur     *generation
	// released: a read-only DB let its generation go for a writer
	// (Options.YieldToWriters); its next call opens CURRENT's again.
	// Guarded by mu, like cur.
	released  bool
	stopYield chan struct{} // stops the yield goroutine; nil without one
	repairs   []string      // what Open did to the BM25 index; see Repairs
}

// generation is one open generation: the store and what is derived from it.
type generation struct {
	st  *store.Store
	vec *vector.Index
	// bmMu guards bm, bmErr and vecErr; queries hold it shared while they
	// use bm, so that a writer closes a failed index only after them.
	bmMu sync.RWMutex
	// bm is the BM25 index: nil until a read-only DB's first query opens
	// it, and while it cannot be used (bmErr says why: ErrIndexDamaged or
	// ErrIndexBehind). A read-write DB keeps bm at the store's sequence or
	// closes it.
	bm    *bm25.Index
	bmErr error
	// vecErr is set when applying a committed write to the vector slab
	// failed; queries then fail until the store is reopened.
	vecErr error
	// remote is the retrieval backend when it is not the embedded one
	// (set once, at attach); remoteErr, guarded by bmMu, says why
	// queries cannot use it (ErrBackendBehind).
	remote    *remote
	remoteErr error
	// graphMu guards graph and stopOpening.
	graphMu     sync.Mutex
	graph       *graphState        // nil until first use; see loadGraph
	stopOpening context.CancelFunc // stops an opening of graph in flight
}

// Open opens the store in dir (creating it unless opts.ReadOnly). A
// read-write Open brings the BM25 index up to the store, replaying what
// an interrupted or failed write left out and rebuilding a damaged index
// (Repairs says what it did); when it cannot, Open still succeeds and
// queries report why. A read-only Open leaves the index until the first
// query, so stats, show and export never need it.
func Open(dir string, opts *Options) (*DB, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	db := &DB{dir: dir}
	if opts != nil {
		db.opts = *opts
	}
	db.tok = &lazyTokenizer{}
	g, err := db.openGeneration("")
	if err != nil {
		return nil, err
	}
	db.cur = g
	if !db.opts.ReadOnly {
		openWriters.Store(storeKey(dir), db)
	}
	if db.opts.ReadOnly && db.opts.YieldToWriters {
		db.stopYield = make(chan struct{})
		go db.yield(db.stopYield)
	}
	return db, nil
}

// yield lets db's generation go whenever a writer waits for it and no
// call holds it (Options.YieldToWriters), until stop is closed.
func (db *DB) yield(stop <-chan struct{}) {
	t := time.NewTicker(yieldInterval)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		if !store.WriterWaiting(db.dir) || !db.mu.TryLock() { // a call in flight: look again later
			continue
		}
		if g := db.cur; g != nil {
			db.cur, db.released = nil, true
			g.close()
		}
		db.mu.Unlock()
	}
}

// openGeneration opens generation name ("" = CURRENT's) with every index.
func (db *DB) openGeneration(name string) (*generation, error) {
	sopts := &store.Options{ReadOnly: db.opts.ReadOnly, LockTimeout: db.opts.LockTimeout, Generation: name}
	st, err := store.Open(db.dir, sopts)
	if err != nil {
		return nil, err
	}
	return db.attachStore(st)
}

// attachStore makes a generation of the open st with every index, or
// closes st.
func (db *DB) attachStore(st *store.Store) (*generation, error) {
	g := &generation{st: st}
	if err := db.attach(g); err != nil {
		g.close()
		return nil, err
	}
	return g, nil
}

// attach opens the derived indexes of g.st (a read-only DB's BM25 index
// at its first query) and picks the embedder.
func (db *DB) attach(g *generation) error {
	m, err := g.st.Meta()
	if err != nil {
		return err
	}
	if db.emb == nil {
		if db.emb, err = chooseEmbedder(db.opts.Embedder, m, db.opts.EmbedServer); err != nil {
			return err
		}
	}
	if !db.opts.ReadOnly {
		if note := db.openIndex(g, true); note != "" {
			db.repairs = append(db.repairs, note)
		}
	}
	if err := db.attachBackend(context.Background(), g, m); err != nil {
		return err
	}
	dim := m.Dim
	if dim == 0 {
		dim = db.emb.Dim()
	}
	q8, err := db.quantize(g.st, m)
	if err != nil {
		return err
	}
	if q8 {
		g.vec = vector.NewInt8(dim, storeVectors{g.st})
		return loadInt8(g.st, g.vec)
	}
	g.vec = vector.New(dim)
	slots, vecs, _, err := g.st.LoadVectors(g.vec.Floats)
	if err != nil {
		return err
	}
	return g.vec.Load(slots, vecs)
}

// quantize reports whether the vector slab is to be held as int8 codes
// (Options.Quantize, else the store's record, else int8 for a new
// store), recording a read-write DB's choice in the store. A store that
// recorded nothing and holds writes predates the int8 default: it keeps
// float32.
func (db *DB) quantize(st *store.Store, m store.Meta) (bool, error) {
	want := m.Quantize
	switch db.opts.Quantize {
	case QuantizeInt8:
		want = store.QuantizeInt8
	case QuantizeF32:
		want = store.QuantizeF32
	case "":
		if m.Quantize == store.QuantizeNone && m.Seq == 0 {
			want = store.QuantizeInt8
		}
	}
	if !db.opts.ReadOnly && want != m.Quantize {
		if err := st.SetQuantize(want); err != nil {
			return false, err
		}
	}
	return want == store.QuantizeInt8, nil
}

// loadInt8 fills an int8 index from the store's vectors: this goroutine
// reads and decodes segments while another quantises the ones before
// (Append), so that an open costs the slower of the two rather than
// both.
func loadInt8(st *store.Store, ix *vector.Index) error {
	type segment struct {
		slots []base.Slot
		vecs  []float32
	}
	const ahead = 4 // segments read ahead of the quantiser
	full, free := make(chan segment, ahead), make(chan segment, ahead)
	appended := make(chan error, 1)
	var failed atomic.Bool // the quantiser stopped: reading on is pointless
	go func() {
		var err error
		for s := range full {
			if err == nil {
				err = ix.Append(s.slots, s.vecs)
				failed.Store(err != nil)
			}
			select {
			case free <- s: // the reader's next buffers
			default:
			}
		}
		appended <- err
	}()
	errStopped := errors.New("stopped")
	err := st.EachVectors(func(n, _ int) { ix.Reserve(n) }, func(slots []base.Slot, vecs []float32) error {
		if failed.Load() {
			return errStopped
		}
		var s segment
		select {
		case s = <-free:
		default:
		}
		full <- segment{append(s.slots[:0], slots...), append(s.vecs[:0], vecs...)}
		return nil
	})
	close(full)
	if errors.Is(err, errStopped) {
		err = nil
	}
	return errors.Join(err, <-appended)
}

// storeVectors is an int8 index's vector.Source: the float32 vectors
// read back from the store file.
type storeVectors struct{ st *store.Store }

func (s storeVectors) Vectors(ords []uint64, fn func(int, []float32)) error {
	return s.st.VectorsAt(ords, fn)
}

// chooseEmbedder returns given, checked against the embedder the store
// recorded in m, or else recreates that one (served by server when it is
// an OpenAI-compatible one; see unserved for one server cannot serve).
func chooseEmbedder(given embed.Embedder, m store.Meta, server embed.OpenAIConfig) (embed.Embedder, error) {
	if given != nil {
		if m.Embedder != "" && (given.Name() != m.Embedder || given.Dim() != m.Dim) {
			return nil, fmt.Errorf("%w: the store was built with %s (dim %d) but the embedder given is %s (dim %d)",
				store.ErrEmbedderMismatch, m.Embedder, m.Dim, given.Name(), given.Dim())
		}
		return given, nil
	}
	if m.Embedder == "" {
		return embed.NewHash(DefaultDim), nil
	}
	e, err := embed.Named(m.Embedder, m.Dim, server)
	switch {
	case errors.Is(err, embed.ErrUnknown):
		return nil, fmt.Errorf("%w: the store was built with %q, which this medkb cannot recreate; pass Options.Embedder",
			store.ErrEmbedderMismatch, m.Embedder)
	case errors.Is(err, embed.ErrConfig):
		return unserved{name: m.Embedder, dim: m.Dim,
			err: fmt.Errorf("%w: %s (dim %d): %w", ErrNotServed, m.Embedder, m.Dim, err)}, nil
	}
	return e, err
}

// ErrNotServed is returned by what embeds (Ingest, a query with a vector
// arm or PACK) when the store's embedder needs a server that
// Options.EmbedServer does not give.
var ErrNotServed = errors.New("medkb: the store's embedder is not served")

// unserved stands in for a store's embedder that EmbedServer does not
// serve (no BaseURL): stats, show, export, delete and BM25 queries need
// no vectors, so the store opens, and only what embeds fails, saying why.
type unserved struct {
	name string
	dim  int
	err  error
}

func (u unserved) Name() string { return u.name }
func (u unserved) Dim() int     { return u.dim }
func (u unserved) Embed(context.Context, []string) ([][]float32, error) {
	return nil, u.err
}

// snapshot returns the current generation for one operation; release
// must be called when done. A read-only DB first moves to a newer
// generation if CURRENT changed.
func (db *DB) snapshot() (*generation, func(), error) {
	for {
		if db.opts.ReadOnly {
			if err := db.follow(); err != nil {
				return nil, nil, err
			}
		}
		db.mu.RLock()
		if db.cur != nil {
			return db.cur, db.mu.RUnlock, nil
		}
		released := db.released // by yield, since follow opened it: again
		db.mu.RUnlock()
		if !released {
			return nil, nil, ErrClosed
		}
	}
}

// follow switches a read-only DB to the generation CURRENT names, or
// opens it again after yield let it go.
func (db *DB) follow() error {
	name, err := store.Current(db.dir)
	if err != nil {
		return err
	}
	db.mu.RLock()
	same := db.cur == nil && !db.released || db.cur != nil && db.cur.st.Generation() == name
	db.mu.RUnlock()
	if same {
		return nil
	}
	g, err := db.openGeneration(name)
	if err != nil {
		return fmt.Errorf("medkb: moving to generation %s: %w", name, err)
	}
	db.mu.Lock()
	if db.cur == nil && !db.released { // closed meanwhile
		db.mu.Unlock()
		g.close()
		return ErrClosed
	}
	old := db.cur
	db.cur, db.released = g, false
	db.mu.Unlock()
	if old != nil {
		old.close()
	}
	return nil
}

// ErrClosed is returned by operations on a closed DB.
var ErrClosed = errors.New("medkb: database is closed")

// Close closes the store and its indexes; in-flight queries finish first.
func (db *DB) Close() error {
	db.writeMu.Lock()
	defer db.writeMu.Unlock()
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.stopYield != nil {
		close(db.stopYield)
		db.stopYield = nil
	}
	db.released = false
	if db.cur == nil {
		return nil
	}
	openWriters.CompareAndDelete(storeKey(db.dir), db)
	err := db.cur.close()
	db.cur = nil
	return err
}

func (g *generation) close() error {
	g.stopGraph()
	if g.vec != nil {
		g.vec.Close()
	}
	var errs []error
	if g.bm != nil {
		errs = append(errs, g.bm.Close())
	}
	errs = append(errs, g.st.Close())
	return errors.Join(errs...)
}

// Dir returns the store directory.
func (db *DB) Dir() string { return db.dir }

// Embedder returns the embedder in use.
func (db *DB) Embedder() embed.Embedder { return db.emb }
