package medkb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/medkb/medkb/index/bm25"
	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/index/vector"
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
}

// generation is one open generation: the store and what is derived from it.
type generation struct {
	st          *store.Store
	bm          *bm25.Index
	vec         *vector.Index
	graphMu     sync.Mutex
	graph       *graphState        // nil until first use; see loadGraph
	stopOpening context.CancelFunc // stops an opening of graph in flight
}

// Open opens the store in dir (creating it unless opts.ReadOnly) and
// brings its derived indexes up to date.
func Open(dir string, opts *Options) (*DB, error) {
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
	return db, nil
}

// openGeneration opens generation name ("" = CURRENT's) with every index.
func (db *DB) openGeneration(name string) (*generation, error) {
	sopts := &store.Options{ReadOnly: db.opts.ReadOnly, LockTimeout: db.opts.LockTimeout, Generation: name}
	st, err := store.Open(db.dir, sopts)
	if err != nil {
		return nil, err
	}
	g := &generation{st: st}
	if err := db.attach(g); err != nil {
		g.close()
		return nil, err
	}
	return g, nil
}

// attach opens the derived indexes of g.st and picks the embedder.
func (db *DB) attach(g *generation) error {
	m, err := g.st.Meta()
	if err != nil {
		return err
	}
	if db.emb == nil {
		if db.emb, err = chooseEmbedder(db.opts.Embedder, m); err != nil {
			return err
		}
	}
	if g.bm, err = openBM25(g.st, db.opts.ReadOnly, db.opts); err != nil {
		return err
	}
	dim := m.Dim
	if dim == 0 {
		dim = db.emb.Dim()
	}
	g.vec = vector.New(dim)
	slots, vecs, _, err := g.st.LoadVectors(g.vec.Floats)
	if err != nil {
		return err
	}
	if err := g.vec.Load(slots, vecs); err != nil {
		return err
	}
	if !db.opts.ReadOnly && m.GraphVersion() != (store.GraphVersion{}) && !graphFileCurrent(g.st.GenDir(), m.GraphVersion()) {
		// Like the BM25 replay: a writer leaves the graph's compact form
		// current (graphfile.go), at the cost of one build after a crash.
		// A failure is the graph's to report, to queries that expand.
		g.loadGraph(context.Background())
	}
	return nil
}

// openBM25 opens the generation's BM25 index and replays what it lacks. A
// read-only DB cannot write the index; when it lags (after a writer
// crashed) Open asks for a read-write open to repair it.
func openBM25(st *store.Store, readOnly bool, opts Options) (*bm25.Index, error) {
	dir := filepath.Join(st.GenDir(), "bm25")
	bm, err := bm25.Open(dir, &bm25.Options{ReadOnly: readOnly, LockTimeout: opts.LockTimeout})
	if readOnly && errors.Is(err, bm25.ErrNotFound) {
		return nil, fmt.Errorf("medkb: %s has no BM25 index yet; open it read-write once (e.g. medkb check --db %s) to build it", st.Dir(), st.Dir())
	}
	if err != nil {
		return nil, err
	}
	have, err := bm.Seq()
	if err != nil {
		bm.Close()
		return nil, err
	}
	m, err := st.Meta()
	if err != nil {
		bm.Close()
		return nil, err
	}
	if have == m.Seq {
		return bm, nil
	}
	if readOnly {
		bm.Close()
		return nil, fmt.Errorf("medkb: the BM25 index of %s is behind the store (sequence %d < %d, a writer was interrupted); "+
			"open it read-write once (e.g. medkb check --db %s) to replay", st.Dir(), have, m.Seq, st.Dir())
	}
	ch, err := st.Replay(have)
	if err != nil {
		bm.Close()
		return nil, err
	}
	if err := applyBM25(bm, have, ch); err != nil {
		bm.Close()
		return nil, err
	}
	return bm, nil
}

func chooseEmbedder(given embed.Embedder, m store.Meta) (embed.Embedder, error) {
	if given != nil {
		if m.Embedder != "" && (given.Name() != m.Embedder || given.Dim() != m.Dim) {
			return nil, fmt.Errorf("%w: the store was built with %s (dim %d) but Options.Embedder is %s (dim %d)",
				store.ErrEmbedderMismatch, m.Embedder, m.Dim, given.Name(), given.Dim())
		}
		return given, nil
	}
	if m.Embedder == "" {
		return embed.NewHash(DefaultDim), nil
	}
	e, err := embed.Named(m.Embedder, m.Dim, os.Getenv("MEDKB_EMBED_URL"))
	if errors.Is(err, embed.ErrUnknown) {
		return nil, fmt.Errorf("%w: the store was built with %q, which this medkb cannot recreate; pass Options.Embedder",
			store.ErrEmbedderMismatch, m.Embedder)
	}
	return e, err
}

// snapshot returns the current generation for one operation; release
// must be called when done. A read-only DB first moves to a newer
// generation if CURRENT changed.
func (db *DB) snapshot() (*generation, func(), error) {
	if db.opts.ReadOnly {
		if err := db.follow(); err != nil {
			return nil, nil, err
		}
	}
	db.mu.RLock()
	if db.cur == nil {
		db.mu.RUnlock()
		return nil, nil, ErrClosed
	}
	return db.cur, db.mu.RUnlock, nil
}

// follow switches a read-only DB to the generation CURRENT names.
func (db *DB) follow() error {
	name, err := store.Current(db.dir)
	if err != nil {
		return err
	}
	db.mu.RLock()
	same := db.cur == nil || db.cur.st.Generation() == name
	db.mu.RUnlock()
	if same {
		return nil
	}
	g, err := db.openGeneration(name)
	if err != nil {
		return fmt.Errorf("medkb: moving to generation %s: %w", name, err)
	}
	db.mu.Lock()
	old := db.cur
	db.cur = g
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
	if db.cur == nil {
		return nil
	}
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
