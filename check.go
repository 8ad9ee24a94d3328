package medkb

import (
	"context"
	"errors"
	"fmt"

	"github.com/medkb/medkb/index/bm25"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/store"
)

// CheckReport is what Check found in a store and what it repaired.
type CheckReport struct {
	Problems []error  // what is wrong and was not repaired
	Fixed    []error  // what was wrong and the repair fixed
	Repaired []string // what the check repaired (only the derived BM25 index)
	Stats    *Stats   // the store's counters, when there is no problem
}

// Check checks the store in dir. First the system of record, read-only
// (store.Verify): a damaged file is reported, page by page and record by
// record, and never opened for writing. Only when it is sound does Check
// open the store read-write, which replays what an interrupted writer left
// out of the BM25 index and rebuilds a damaged one, and compare the
// derived indexes with it; when only the BM25 index is wrong, it rebuilds
// the index from the store and checks again. Of opts only LockTimeout,
// Embedder and EmbedServer matter. In a process that holds dir open
// read-write, Check is that DB's Verify. err is for a store that cannot be
// checked at all (missing, locked), or for opts that Validate refuses.
func Check(dir string, opts *Options) (*CheckReport, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if db := writerIn(dir); db != nil {
		return db.Verify(context.Background())
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	o.ReadOnly = false
	problems, err := store.Verify(dir, &store.Options{LockTimeout: o.LockTimeout})
	if err != nil || len(problems) > 0 {
		return &CheckReport{Problems: problems}, err
	}
	db, err := Open(dir, &o)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	r, err := db.checkAndRepair(context.Background(), false)
	if r != nil {
		r.Repaired = append(db.Repairs(), r.Repaired...)
	}
	return r, err
}

// Verify is the package-level Check through db, on the generation db has
// open: its pages and records (Store.Check, as store.Verify runs it),
// then its derived indexes compared with it. A read-write db then
// repairs, as Check does, a problem of the BM25 index only; a read-only
// db reports it. A read-write db's writes wait for the check of the
// store and of its indexes, which would otherwise see a write half done.
func (db *DB) Verify(ctx context.Context) (*CheckReport, error) {
	return db.checkAndRepair(ctx, true)
}

// checkAndRepair checks the open generation (its store too when
// withStore) and its derived indexes, and has a read-write db rebuild a
// BM25 index that alone is wrong.
func (db *DB) checkAndRepair(ctx context.Context, withStore bool) (*CheckReport, error) {
	r := &CheckReport{}
	var err error
	if r.Problems, err = db.checkOpen(ctx, withStore); err != nil || len(r.Problems) == 0 {
		return db.withStats(r, err)
	}
	if db.opts.ReadOnly || !indexOnly(r.Problems) {
		return r, nil
	}
	note, err := db.RepairIndex()
	if err != nil {
		return nil, err
	}
	r.Fixed, r.Repaired = r.Problems, []string{note}
	r.Problems, err = db.checkOpen(ctx, false)
	return db.withStats(r, err)
}

// withStats adds the store's counters to a report without problems.
func (db *DB) withStats(r *CheckReport, err error) (*CheckReport, error) {
	if err != nil {
		return nil, err
	}
	if len(r.Problems) == 0 {
		r.Stats, err = db.Stats()
	}
	return r, err
}

// checkOpen returns the problems of the open generation's store (when
// withStore; its derived indexes are compared only when it has none) and
// of its derived indexes, holding off db's writes meanwhile.
func (db *DB) checkOpen(ctx context.Context, withStore bool) ([]error, error) {
	db.writeMu.Lock()
	defer db.writeMu.Unlock()
	g, release, err := db.snapshot()
	if err != nil {
		return nil, err
	}
	defer release()
	if withStore {
		if problems := g.st.Check(); len(problems) > 0 {
			return problems, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return db.checkDerived(g)
}

// indexOnly reports whether every problem is the BM25 index's, which a
// rebuild of the index from the store fixes.
func indexOnly(problems []error) bool {
	for _, p := range problems {
		if !errors.Is(p, ErrIndexDamaged) && !errors.Is(p, ErrIndexBehind) {
			return false
		}
	}
	return true
}

// Check verifies that the store is consistent and that the BM25 index and
// the vector slab agree with it; it returns every problem found. Problems
// of the BM25 index wrap ErrIndexDamaged or ErrIndexBehind: RepairIndex
// fixes those. It reads every segment of the index whole (bm25.Verify).
func (db *DB) Check() ([]error, error) {
	g, release, err := db.snapshot()
	if err != nil {
		return nil, err
	}
	defer release()
	problems := g.st.Check()
	more, err := db.checkDerived(g)
	return append(problems, more...), err
}

// checkDerived compares the BM25 index and the vector slab with the store.
func (db *DB) checkDerived(g *generation) ([]error, error) {
	var problems []error
	m, err := g.st.Meta()
	if err != nil {
		return nil, err
	}
	live := map[uint64]bool{}
	err = g.st.ForEachDoc(func(_ *base.Doc, info store.DocInfo) error {
		for _, o := range info.Ords {
			live[o] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if bm, done, err := db.index(g); err != nil {
		problems = append(problems, err)
	} else {
		problems = append(problems, checkIndex(g.st, bm, m.Seq, live)...)
		done()
	}
	if g.vec.Live() != len(live) {
		problems = append(problems, fmt.Errorf("vector slab has %d live slots, the store %d chunks", g.vec.Live(), len(live)))
	}
	for o := range live {
		if s, ok := g.vec.Slot(o); !ok || !s.Alive {
			problems = append(problems, fmt.Errorf("vector slab has no live slot for chunk %d", o))
			break
		}
	}
	return problems, nil
}

// checkIndex compares the BM25 index bm of st with the store at sequence
// seq holding the chunks live; every problem wraps ErrIndexDamaged.
func checkIndex(st *store.Store, bm *bm25.Index, seq uint64, live map[uint64]bool) []error {
	if err := bm.Verify(); err != nil {
		return []error{damaged(st, err)} // reading on could panic or mislead
	}
	var problems []error
	add := func(err error) {
		if len(problems) < 100 {
			problems = append(problems, damaged(st, err))
		}
	}
	if have, err := bm.Seq(); err != nil {
		add(err)
	} else if have != seq {
		add(fmt.Errorf("bm25 index reflects sequence %d, store is at %d", have, seq))
	}
	indexed := 0
	err := bm.Ords(func(ord uint64) error {
		indexed++
		if !live[ord] {
			add(fmt.Errorf("bm25 index has chunk %d, which the store does not", ord))
		}
		return nil
	})
	if err != nil {
		add(err)
	} else if indexed != len(live) {
		add(fmt.Errorf("bm25 index has %d chunks, the store %d", indexed, len(live)))
	}
	return problems
}

// verify runs Check and turns the problems it finds into one error.
func (db *DB) verify() error {
	problems, err := db.Check()
	if err != nil {
		return err
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %d problem(s): %w", ErrInconsistent, len(problems), errors.Join(problems...))
}
