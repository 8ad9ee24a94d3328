package medkb

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/medkb/medkb/index/bm25"
	"github.com/medkb/medkb/store"
)

// Why a query cannot be answered; see doc.go, "The BM25 index".
var (
	// ErrIndexDamaged says the BM25 index of the open generation cannot be
	// opened or read (a file missing, truncated or garbled), or reflects
	// writes the store does not have. A read-write open (`medkb check`)
	// rebuilds it from the store.
	ErrIndexDamaged = errors.New("medkb: BM25 index damaged")
	// ErrIndexBehind says the BM25 index lacks writes the store committed:
	// an ingest whose index update failed (a full disk) or was killed. The
	// next write or read-write open (`medkb check`) indexes them.
	ErrIndexBehind = errors.New("medkb: BM25 index is behind the store")
)

// bm25Dir is where generation st keeps its BM25 index.
func bm25Dir(st *store.Store) string { return filepath.Join(st.GenDir(), "bm25") }

// damaged wraps cause, a reason the index of st cannot be used, in
// ErrIndexDamaged with the command that repairs it.
func damaged(st *store.Store, cause error) error {
	return fmt.Errorf("%w (run medkb check --db %s to rebuild it from the store): %w", ErrIndexDamaged, st.Dir(), cause)
}

// behind wraps in ErrIndexBehind that the index of st reflects write have
// while the store is at seq, and why.
func behind(st *store.Store, have, seq uint64, why error) error {
	return fmt.Errorf("%w (medkb check --db %s, or the next ingest, indexes what is missing): %s reflects write %d, the store is at %d: %w",
		ErrIndexBehind, st.Dir(), bm25Dir(st), have, seq, why)
}

// openIndex opens the BM25 index of g for a read-write DB and brings it
// to the store's sequence, replaying what it lacks. An index it cannot
// open or replay into is rebuilt from the store when repair is set; what
// cannot be fixed is left in g.bmErr, for queries to report, rather than
// failing: the store itself stays readable and writable. It returns a
// note of what it repaired, "" for nothing.
//
// The store's locks keep every other user away from the index of the
// generation a DB has open, so the index's own lock is never held by
// anyone else: when it is, a bleve open that panicked left it behind,
// and the index counts as damaged (see lockWait).
func (db *DB) openIndex(g *generation, repair bool) string {
	opts := &bm25.Options{LockTimeout: lockWait}
	bm, cause := bm25.Open(bm25Dir(g.st), opts)
	if cause == nil {
		note, err := catchUp(bm, g.st)
		if err == nil {
			g.setIndex(bm, nil)
			return note
		}
		bm.Close()
		if errors.Is(err, ErrIndexBehind) || !repair {
			g.setIndex(nil, err)
			return ""
		}
		cause = err
	} else if !repair {
		g.setIndex(nil, damaged(g.st, cause))
		return ""
	}
	bm, n, err := rebuildIndex(g.st, opts)
	if err != nil {
		g.setIndex(nil, fmt.Errorf("%w; rebuilding it failed: %w", damaged(g.st, cause), err))
		return ""
	}
	g.setIndex(bm, nil)
	return fmt.Sprintf("rebuilt the BM25 index of %s from the store (%d chunks); it was damaged: %v", g.st.Generation(), n, cause)
}

// lockWait bounds the wait for the BM25 index's own lock. The store's
// locks already exclude every other user of the index (a writer holds the
// store exclusively, a reader shares it, and a rebuild writes a new
// generation), so a held index lock is a stale one and waiting longer
// would only delay its repair.
const lockWait = time.Second

// catchUp replays into bm, open read-write, the writes of st it lacks,
// and returns a note of what it replayed. The error wraps ErrIndexDamaged
// when bm is unreadable, ahead of the store or cannot be replayed into
// (the log no longer reaches back), ErrIndexBehind when writing failed.
func catchUp(bm *bm25.Index, st *store.Store) (string, error) {
	have, err := bm.Seq()
	if err != nil {
		return "", damaged(st, err)
	}
	m, err := st.Meta()
	if err != nil {
		return "", err
	}
	switch {
	case have == m.Seq:
		return "", nil
	case have > m.Seq:
		return "", damaged(st, fmt.Errorf("%s reflects write %d, the store only %d", bm25Dir(st), have, m.Seq))
	}
	ch, err := st.Replay(have)
	if err != nil {
		return "", damaged(st, err)
	}
	if err := applyBM25(bm, ch); err != nil {
		if errors.Is(err, bm25.ErrCorrupt) {
			return "", damaged(st, err)
		}
		return "", behind(st, have, m.Seq, err)
	}
	return fmt.Sprintf("caught up the BM25 index of %s with the store: replayed writes %d to %d (%d chunks added, %d removed)",
		st.Generation(), have+1, m.Seq, len(ch.Added), len(ch.Deleted)), nil
}

// rebuildIndex builds the BM25 index of st anew from the store, beside
// whatever is there, and swaps it in (bm25.Rebuild). It returns the index,
// open read-write, and the number of chunks indexed.
func rebuildIndex(st *store.Store, opts *bm25.Options) (*bm25.Index, int, error) {
	n := 0
	bm, err := bm25.Rebuild(bm25Dir(st), opts, func(ix *bm25.Index) error {
		ch, err := st.Replay(0)
		if err != nil {
			return err
		}
		n = len(ch.Added)
		return applyBM25(ix, ch)
	})
	return bm, n, err
}

// openIndexReadOnly opens the BM25 index of g for a read-only DB, at its
// first query. An index behind the store is not used: a reader cannot
// replay, and its answers would miss documents that stats, show and
// export list. The error says how many writes it lacks. (scorch, finding
// its newest snapshot unloadable, silently loads the one before: that
// too looks like an index behind the store.)
func (db *DB) openIndexReadOnly(g *generation) (*bm25.Index, error) {
	bm, err := bm25.Open(bm25Dir(g.st), &bm25.Options{ReadOnly: true, LockTimeout: lockWait})
	if err != nil {
		return nil, damaged(g.st, err)
	}
	have, err := bm.Seq()
	if err != nil {
		bm.Close()
		return nil, damaged(g.st, err)
	}
	m, err := g.st.Meta()
	if err != nil {
		bm.Close()
		return nil, err
	}
	switch {
	case have == m.Seq:
		return bm, nil
	case have > m.Seq:
		bm.Close()
		return nil, damaged(g.st, fmt.Errorf("%s reflects write %d, the store only %d", bm25Dir(g.st), have, m.Seq))
	}
	bm.Close()
	ch, err := g.st.Replay(have)
	if err != nil {
		return nil, damaged(g.st, err)
	}
	return nil, behind(g.st, have, m.Seq, fmt.Errorf("%d write(s) not indexed (%d chunks to add, %d to remove): an ingest's index update failed or was interrupted, or the index lost its newest segment",
		m.Seq-have, len(ch.Added), len(ch.Deleted)))
}

// index returns the BM25 index of g for one query (opening it at the
// first query of a read-only DB) and the function to call when done; or
// the error that says why queries cannot be answered.
func (db *DB) index(g *generation) (*bm25.Index, func(), error) {
	g.bmMu.RLock()
	if g.bm == nil && g.bmErr == nil { // a read-only DB's first query
		g.bmMu.RUnlock()
		g.bmMu.Lock()
		if g.bm == nil && g.bmErr == nil {
			g.bm, g.bmErr = db.openIndexReadOnly(g)
		}
		g.bmMu.Unlock()
		g.bmMu.RLock()
	}
	if err := cmp.Or(g.vecErr, g.bmErr, g.remoteErr); err != nil {
		g.bmMu.RUnlock()
		return nil, nil, err
	}
	return g.bm, g.bmMu.RUnlock, nil
}

// setIndex installs bm, or records why there is none.
func (g *generation) setIndex(bm *bm25.Index, err error) {
	g.bmMu.Lock()
	g.bm, g.bmErr = bm, err
	g.bmMu.Unlock()
}

// dropIndex closes the index after a failure, once the queries using it
// are done, and records err.
func (g *generation) dropIndex(err error) {
	g.bmMu.Lock()
	if g.bm != nil {
		g.bm.Close() // the failure is what matters; the next open sees what was persisted
	}
	g.bm, g.bmErr = nil, err
	g.bmMu.Unlock()
}

// queryErr says why queries of g cannot be answered, nil when they can.
func (g *generation) queryErr() error {
	g.bmMu.RLock()
	defer g.bmMu.RUnlock()
	return cmp.Or(g.vecErr, g.bmErr, g.remoteErr)
}

// RepairIndex rebuilds the BM25 index of a read-write DB's generation from
// the store, whatever state the old index is in: the new one is built
// beside it and swapped in, so a failure leaves the old one. It returns
// what it did. `medkb check` calls it when Check finds the index damaged
// where opening it does not look (a garbled segment).
func (db *DB) RepairIndex() (string, error) {
	if db.opts.ReadOnly {
		return "", store.ErrReadOnly
	}
	db.writeMu.Lock()
	defer db.writeMu.Unlock()
	g, release, err := db.snapshot()
	if err != nil {
		return "", err
	}
	defer release()
	g.dropIndex(fmt.Errorf("%w: being rebuilt", ErrIndexDamaged))
	bm, n, err := rebuildIndex(g.st, &bm25.Options{LockTimeout: lockWait})
	if err != nil {
		err = damaged(g.st, fmt.Errorf("rebuilding it failed: %w", err))
		g.setIndex(nil, err)
		return "", err
	}
	g.setIndex(bm, nil)
	return fmt.Sprintf("rebuilt the BM25 index of %s from the store (%d chunks)", g.st.Generation(), n), nil
}

// Repairs lists what Open did to bring the BM25 index up to the store:
// writes replayed after an interrupted or failed ingest, an index rebuilt
// because it was damaged. Empty for a read-only DB, which repairs nothing.
func (db *DB) Repairs() []string { return db.repairs }
