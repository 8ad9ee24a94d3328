package bm25

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/medkb/medkb/internal/fsync"
	"github.com/medkb/medkb/store"
	berrors "go.etcd.io/bbolt/errors"
)

// Options tunes Open. The zero value (and a nil *Options) opens read-write,
// creating the index if missing, and waits one second for a lock.
type Options struct {
	// ReadOnly opens an existing index for search only: no persister or
	// merger goroutines, a shared lock on the index files, and a view frozen
	// at the moment of opening. Zero: read-write, created if missing.
	ReadOnly bool
	// LockTimeout bounds how long Open waits while another user holds the
	// index (a writer excludes everyone; readers exclude writers). Zero
	// means one second; Open then fails with store.ErrLocked.
	LockTimeout time.Duration
}

const defaultLockTimeout = time.Second

// Index is the BM25 index of one store generation. It is safe for
// concurrent use; Apply calls are serialised.
type Index struct {
	bleve    bleve.Index
	an       analyzers
	readOnly bool
	applyMu  sync.Mutex // held by Apply, so the recorded seq only grows

	statsMu sync.Mutex
	stats   lengthStats // as recorded with the latest batch
}

// Open opens the index in dir, creating it (with the mapping described in
// doc.go) if dir holds none and opts is not read-only. A read-write Open
// also removes what an interrupted Rebuild left beside dir. An index that
// bleve cannot load (a segment or root.bolt missing, truncated or garbled)
// fails with bleve's error, or ErrCorrupt where bleve would panic.
func Open(dir string, opts *Options) (_ *Index, err error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.LockTimeout <= 0 {
		o.LockTimeout = defaultLockTimeout
	}
	defer recoverCorrupt("open "+dir, &err)
	if !o.ReadOnly {
		if err := removeLeftovers(dir); err != nil {
			return nil, fmt.Errorf("bm25: open %s: %w", dir, err)
		}
	}

	_, err = os.Stat(filepath.Join(dir, metaFile))
	switch {
	case errors.Is(err, fs.ErrNotExist) && o.ReadOnly:
		return nil, fmt.Errorf("bm25: open %s: %w", dir, ErrNotFound)
	case errors.Is(err, fs.ErrNotExist):
		if err := create(dir); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, fmt.Errorf("bm25: open %s: %w", dir, err)
	}

	bi, err := bleve.OpenUsing(dir, runtimeConfig(o))
	if errors.Is(err, berrors.ErrTimeout) {
		return nil, fmt.Errorf("bm25: open %s: %w (the bm25 index)", dir, store.ErrLocked)
	}
	if err != nil && !errors.Is(err, fs.ErrPermission) {
		// The directory holds an index (metaFile) that bleve cannot read:
		// a garbled segment can surface as a bad mapping or a bad segment
		// header rather than a panic.
		return nil, fmt.Errorf("bm25: open %s: %w: %w", dir, ErrCorrupt, err)
	}
	if err != nil {
		return nil, fmt.Errorf("bm25: open %s: %w", dir, err)
	}
	ix := &Index{bleve: bi, readOnly: o.ReadOnly}
	if err := ix.init(); err != nil {
		_ = bi.Close()
		return nil, fmt.Errorf("bm25: open %s: %w", dir, err)
	}
	return ix, nil
}

// metaFile is the file bleve writes first when it creates an index; an
// index directory without it is not an index.
const metaFile = "index_meta.json"

// runtimeConfig is the scorch configuration given on every open. Nothing
// tunable is saved inside the index at creation, so changing these values
// needs no rebuild. See doc.go, "Durability", for why unsafe_batch stays off.
func runtimeConfig(o Options) map[string]interface{} {
	return map[string]interface{}{
		"read_only":    o.ReadOnly,
		"bolt_timeout": o.LockTimeout.String(),
	}
}

// init checks the schema marker and takes the analyzers from the mapping.
func (ix *Index) init() error {
	got, err := ix.bleve.GetInternal([]byte(schemaKey))
	if err != nil {
		return err
	}
	if string(got) != schemaVersion {
		return fmt.Errorf("%w: schema %q, want %q", ErrIncompatible, got, schemaVersion)
	}
	m := ix.bleve.Mapping()
	ix.an = analyzers{text: m.AnalyzerNamed(textAnalyzer), keyword: m.AnalyzerNamed(keywordAnalyzer)}
	if ix.an.text == nil || ix.an.keyword == nil {
		return fmt.Errorf("%w: mapping lacks analyzer %q or %q", ErrIncompatible, textAnalyzer, keywordAnalyzer)
	}
	val, err := ix.bleve.GetInternal([]byte(statsKey))
	if err != nil {
		return err
	}
	ix.stats, err = decodeLengthStats(val)
	return err
}

// Internal keys, stored beside the index content.
const (
	// schemaKey holds schemaVersion; bump it whenever the mapping, the
	// analyzer or the id encoding changes, so old indexes are rebuilt.
	schemaKey     = "medkb.bm25.schema"
	schemaVersion = "1"
	// seqKey holds the store sequence the content reflects (8 bytes, big
	// endian), written in the same batch as that content.
	seqKey = "medkb.bm25.seq"
	// statsKey holds the lengthStats, written in the same batch as seq.
	statsKey = "medkb.bm25.lengths"
)

// Suffixes of the directories built beside an index dir.
const (
	creatingSuffix   = ".creating"   // a new, empty index until create renames it
	rebuildingSuffix = ".rebuilding" // the index Rebuild fills
	replacedSuffix   = ".replaced"   // the index Rebuild replaces, between its two renames
)

// create makes a new, empty index at dir, which must be missing or an
// empty directory. It builds the index beside dir and renames it into
// place, so a crash leaves either no index or a whole one.
func create(dir string) error {
	if err := removeEmptyDir(dir); err != nil {
		return fmt.Errorf("bm25: create %s: %w", dir, err)
	}
	m, err := newMapping()
	if err != nil {
		return err
	}
	tmp := dir + creatingSuffix
	if err := os.RemoveAll(tmp); err != nil {
		return fmt.Errorf("bm25: create %s: %w", dir, err)
	}
	bi, err := bleve.NewUsing(tmp, m, scorch.Name, scorch.Name, nil)
	if err != nil {
		return fmt.Errorf("bm25: create %s: %w", dir, err)
	}
	err = bi.SetInternal([]byte(schemaKey), []byte(schemaVersion))
	if cerr := bi.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fsync.Path(filepath.Join(tmp, metaFile))
	}
	if err == nil {
		err = os.Rename(tmp, dir)
	}
	if err == nil {
		err = fsync.Path(filepath.Dir(dir))
	}
	if err != nil {
		_ = os.RemoveAll(tmp)
		return fmt.Errorf("bm25: create %s: %w", dir, err)
	}
	return nil
}

// Rebuild replaces whatever dir holds (a damaged or incompatible index,
// a stray directory, or nothing) by a new index that fill populates, and
// returns it open read-write. The new index is built in dir+".rebuilding"
// and renamed into place only once fill has succeeded and it is closed, so
// a failure leaves dir as it was. A crash leaves the old dir, the new
// index, or (between the two renames) no dir at all, where the next Open
// creates an empty index at sequence 0 for the caller to fill again; the
// next read-write Open removes the leftovers beside it. Like Open, it
// needs the caller to be dir's only writer.
func Rebuild(dir string, opts *Options, fill func(*Index) error) (*Index, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	o.ReadOnly = false
	tmp, old := dir+rebuildingSuffix, dir+replacedSuffix
	if err := removeLeftovers(dir); err != nil {
		return nil, fmt.Errorf("bm25: rebuild %s: %w", dir, err)
	}
	ix, err := Open(tmp, &o)
	if err != nil {
		return nil, fmt.Errorf("bm25: rebuild %s: %w", dir, err)
	}
	err = fill(ix)
	if cerr := ix.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(dir, old)
		if errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
	}
	if err == nil {
		err = os.Rename(tmp, dir)
	}
	if err == nil {
		err = fsync.Path(filepath.Dir(dir))
	}
	if err != nil {
		_ = os.RemoveAll(tmp)
		return nil, fmt.Errorf("bm25: rebuild %s: %w", dir, err)
	}
	_ = os.RemoveAll(old) // the new index is in place; the next read-write Open retries
	return Open(dir, &o)
}

// removeLeftovers removes what an interrupted Rebuild left beside dir.
func removeLeftovers(dir string) error {
	for _, suffix := range []string{rebuildingSuffix, replacedSuffix} {
		if err := os.RemoveAll(dir + suffix); err != nil {
			return err
		}
	}
	return nil
}

// removeEmptyDir removes dir if it is an empty directory, does nothing if
// it is missing, and fails otherwise.
func removeEmptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case len(entries) > 0:
		return fmt.Errorf("%s is not empty and holds no index", dir)
	}
	return os.Remove(dir)
}

// Close releases the index. Pending merges are abandoned, not lost: the
// last persisted snapshot is what the next Open sees.
func (ix *Index) Close() error {
	if err := ix.bleve.Close(); err != nil {
		return fmt.Errorf("bm25: close: %w", err)
	}
	return nil
}
