package medkb

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/medkb/medkb/index/bm25"
	"github.com/medkb/medkb/index/weaviate"
	"github.com/medkb/medkb/planner"
	"github.com/medkb/medkb/store"
)

// The retrieval backends (Options.Backend).
const (
	BackendEmbedded = "embedded" // the store's own BM25 index and vector slab
	BackendWeaviate = "weaviate" // a Weaviate cluster (package index/weaviate)
)

// WeaviateOptions configure a store on the Weaviate backend.
type WeaviateOptions struct {
	// Nodes lists the cluster's nodes, comma-separated, each
	// "http://HOST:PORT[?grpc=PORT]" (weaviate.ParseNodes). A new store
	// records them; an Open that gives them uses them instead of the
	// recorded ones (the cluster moved) without recording them.
	Nodes string
	// VectorIndex is weaviate.Flat (exact; the default) or weaviate.HNSW,
	// and Replicas the replication factor (zero means 1): both are read
	// when the store is created and recorded.
	VectorIndex string
	Replicas    int
}

var (
	// ErrBackendMismatch is returned by Open when Options.Backend names
	// another backend than the store was created with: a store chooses
	// its backend at creation.
	ErrBackendMismatch = errors.New("medkb: the store uses another retrieval backend")
	// ErrBackendBehind is returned by queries when the retrieval backend
	// lacks writes the store committed (the cluster was unreachable); the
	// next write, or a read-write open (medkb check), replays them.
	ErrBackendBehind = errors.New("medkb: the retrieval backend is behind the store")
)

// backendSpec is what a store records of its backend (store.Meta.Backend),
// as JSON.
type backendSpec struct {
	Kind        string `json:"kind"`
	Nodes       string `json:"nodes"`
	Store       string `json:"store"` // random id naming the store's collections and alias
	VectorIndex string `json:"vector_index"`
	Replicas    int    `json:"replicas"`
}

// collection is the collection of generation gen ("gen-000007").
func (s *backendSpec) collection(gen string) string {
	return s.alias() + "_" + strings.ReplaceAll(gen, "-", "")
}

// alias names the live generation's collection.
func (s *backendSpec) alias() string { return "Medkb_" + s.Store }

// describe is how stats and EXPLAIN name the backend.
func (s *backendSpec) describe() string {
	return fmt.Sprintf("%s (%s, %d replicas)", BackendWeaviate, s.VectorIndex, s.Replicas)
}

// remote is a generation's retrieval backend when it is not the embedded
// one.
type remote struct {
	spec backendSpec
	ix   *weaviate.Index
	// made says the collection is known to exist (made or found by
	// this process); only the writer reads and sets it.
	made bool
}

// attachBackend opens g's backend as the store recorded it, or, for a new
// store whose Options ask for Weaviate, creates the collection, points
// the alias at it and records the choice. A read-write DB then replays
// what the collection lacks; when it cannot, queries report why
// (ErrBackendBehind) and the next write tries again.
func (db *DB) attachBackend(ctx context.Context, g *generation, m store.Meta) error {
	want := db.opts.Backend
	if m.Backend == "" {
		switch {
		case want != BackendWeaviate:
			return nil
		case db.opts.ReadOnly || m.Seq > 0:
			return fmt.Errorf("%w: %s was created with the embedded backend; a store chooses its backend at creation (ingest into a new store with --backend weaviate)",
				ErrBackendMismatch, db.dir)
		}
		return db.createBackend(ctx, g)
	}
	spec, err := backendOf(m)
	if err != nil {
		return err
	}
	if want == BackendEmbedded {
		return fmt.Errorf("%w: %s was created with the %s backend", ErrBackendMismatch, db.dir, spec.describe())
	}
	r, err := openRemote(*spec, g.st.Generation(), db.opts.Weaviate.Nodes)
	if err != nil {
		return err
	}
	g.remote = r
	if db.opts.ReadOnly {
		if m.BackendSeq < m.Seq {
			g.setBackendErr(remoteBehind(g, m.BackendSeq, m.Seq, errors.New("a read-only open does not replay")))
		}
		return nil
	}
	db.syncBackend(ctx, g)
	return nil
}

// createBackend makes the collection of a new store's first generation,
// points the store's new alias at it and records the backend in g.st.
func (db *DB) createBackend(ctx context.Context, g *generation) error {
	w := db.opts.Weaviate
	id := make([]byte, 6)
	if _, err := rand.Read(id); err != nil {
		return err
	}
	spec := backendSpec{Kind: BackendWeaviate, Nodes: w.Nodes, Store: hex.EncodeToString(id),
		VectorIndex: w.VectorIndex, Replicas: w.Replicas}
	r, err := openRemote(spec, g.st.Generation(), "")
	if err != nil {
		return err
	}
	o := r.ix.Options()
	r.spec.VectorIndex, r.spec.Replicas = o.VectorIndex, o.Replicas
	if _, err := r.ix.Create(ctx); err != nil {
		return err
	}
	if _, err := r.ix.Publish(ctx); err != nil {
		return err
	}
	rec, err := json.Marshal(r.spec)
	if err != nil {
		return err
	}
	if err := g.st.SetBackend(string(rec)); err != nil {
		return err
	}
	r.made, g.remote = true, r
	return nil
}

// openRemote makes the Weaviate index of generation gen; nodes, when
// given, stand in for the recorded ones.
func openRemote(spec backendSpec, gen, nodes string) (*remote, error) {
	addrs, err := weaviate.ParseNodes(cmp.Or(nodes, spec.Nodes))
	if err != nil {
		return nil, err
	}
	ix, err := weaviate.Open(weaviate.Options{Nodes: addrs, Collection: spec.collection(gen), Alias: spec.alias(),
		VectorIndex: spec.VectorIndex, Replicas: spec.Replicas})
	if err != nil {
		return nil, err
	}
	return &remote{spec: spec, ix: ix}, nil
}

// syncBackend makes g's collection unless it exists, replays into it the
// writes it lacks (store.Replay from the sequence it reflects, or
// everything when the collection had to be made: it was dropped or lost)
// and
// records the sequence reached; a failure is kept for queries
// (ErrBackendBehind) and bbolt is left as it was. Only the writer of g
// calls it.
func (db *DB) syncBackend(ctx context.Context, g *generation) {
	m, err := g.st.Meta()
	since := m.BackendSeq
	if err == nil && !g.remote.made {
		var created bool
		created, err = g.remote.ix.Create(ctx)
		g.remote.made = err == nil
		if created {
			since = 0 // a new collection holds nothing, whatever was recorded
		}
	}
	if err == nil && since < m.Seq {
		err = replayRemote(ctx, g, since)
	}
	if err != nil {
		err = remoteBehind(g, m.BackendSeq, m.Seq, err)
	}
	g.setBackendErr(err)
}

// replayRemote applies the writes after since to g's backend, then
// records the sequence they bring it to. Since 0 is a full replay, into a
// collection emptied first: whatever it holds (an interrupted rebuild's
// leftovers under the same generation name) is not this generation's.
func replayRemote(ctx context.Context, g *generation, since uint64) error {
	ch, err := g.st.Replay(since)
	if err != nil {
		return err
	}
	if since == 0 {
		if err := g.remote.ix.Clear(ctx); err != nil {
			return err
		}
	}
	adds := make([]bm25.Doc, len(ch.Added))
	ords := make([]uint64, len(ch.Added))
	for i, a := range ch.Added {
		adds[i], ords[i] = bm25Doc(a), a.Chunk.Ord
	}
	vecs := make([][]float32, len(ords))
	if err := g.st.VectorsAt(ords, func(i int, v []float32) { vecs[i] = append([]float32(nil), v...) }); err != nil {
		return err
	}
	if err := g.remote.ix.Apply(ctx, ch.Deleted, adds, vecs); err != nil {
		return err
	}
	return g.st.SetBackendSeq(ch.Seq)
}

// remoteBehind wraps why, the reason g's backend is not at the store's
// sequence seq, in ErrBackendBehind.
func remoteBehind(g *generation, have, seq uint64, why error) error {
	return fmt.Errorf("%w (medkb check --db %s, or the next ingest, replays what is missing): collection %s reflects write %d, the store is at %d: %w",
		ErrBackendBehind, g.st.Dir(), g.remote.ix.Options().Collection, have, seq, why)
}

// setBackendErr records why queries of g cannot use its backend (nil:
// they can).
func (g *generation) setBackendErr(err error) {
	g.bmMu.Lock()
	g.remoteErr = err
	g.bmMu.Unlock()
}

// logKeep is the sequence through which g's replay log may be pruned
// (store.Batch.PruneLogThrough), given bmSeq, the BM25 index's: what
// every derived index has reached.
func (g *generation) logKeep(bmSeq uint64) (uint64, error) {
	if g.remote == nil {
		return bmSeq, nil
	}
	m, err := g.st.Meta()
	return min(bmSeq, m.BackendSeq), err
}

// backend is the planner's Backend for g: nil (the embedded one) unless
// g retrieves from a cluster.
func (g *generation) backend() planner.Backend {
	if g.remote == nil {
		return nil
	}
	return remoteBackend{g.remote}
}

// backendOf reads a store's backend record; nil for the embedded backend.
func backendOf(m store.Meta) (*backendSpec, error) {
	if m.Backend == "" {
		return nil, nil
	}
	var spec backendSpec
	if err := json.Unmarshal([]byte(m.Backend), &spec); err != nil || spec.Kind != BackendWeaviate {
		return nil, fmt.Errorf("%w: backend record %q", store.ErrCorrupt, m.Backend)
	}
	return &spec, nil
}

// publishBackend points the store's alias at generation gen's
// collection, once a rebuild made gen CURRENT; spec is the store's
// backend, nil for the embedded one.
func publishBackend(ctx context.Context, spec *backendSpec, gen string) error {
	if spec == nil {
		return nil
	}
	r, err := openRemote(*spec, gen, "")
	if err != nil {
		return err
	}
	_, err = r.ix.Publish(ctx)
	return err
}

// dropBackend drops the collections of the generations a rebuild
// removed; spec is the store's backend, nil for the embedded one.
func dropBackend(ctx context.Context, spec *backendSpec, removed []string) error {
	if spec == nil || len(removed) == 0 {
		return nil
	}
	r, err := openRemote(*spec, removed[0], "")
	if err != nil {
		return err
	}
	for _, gen := range removed {
		if err := r.ix.Drop(ctx, spec.collection(gen)); err != nil {
			return err
		}
	}
	return nil
}

// DropBackend deletes the collection the store's live generation
// retrieves from, and the alias naming it, from the store's Weaviate
// cluster: what deleting a store's directory leaves behind there. It is
// meant for a store about to be deleted: the store keeps its backend
// record, and its queries and writes fail (or, on a node that has yet to
// apply the change, find nothing) until it is opened read-write
// again, which makes the collection afresh and replays every chunk into
// it (the alias is made again by the next rebuild). It does nothing for a
// store on the embedded backend.
func (db *DB) DropBackend(ctx context.Context) error {
	g, release, err := db.snapshot()
	if err != nil {
		return err
	}
	defer release()
	if g.remote == nil {
		return nil
	}
	return g.remote.ix.Drop(ctx, g.remote.ix.Options().Collection) // on the nodes this open uses
}

// remoteBackend serves the planner's arms from a Weaviate collection,
// with the whole filter pushed down.
type remoteBackend struct{ r *remote }

func (b remoteBackend) Name() string   { return b.r.spec.describe() }
func (remoteBackend) PushesMeta() bool { return true }

func (b remoteBackend) SearchBM25(ctx context.Context, q string, a planner.RetrieveNode) ([]planner.Hit, error) {
	hs, err := b.r.ix.SearchBM25(ctx, q, a.K, a.Filter)
	return planHits(hs), err
}

func (b remoteBackend) SearchVector(ctx context.Context, qvec []float32, a planner.RetrieveNode) ([]planner.Hit, error) {
	hs, err := b.r.ix.SearchVector(ctx, qvec, a.K, a.Filter)
	return planHits(hs), err
}

func planHits(hs []weaviate.Hit) []planner.Hit {
	out := make([]planner.Hit, len(hs))
	for i, h := range hs {
		out[i] = planner.Hit{Ord: h.Ord, Score: h.Score}
	}
	return out
}
