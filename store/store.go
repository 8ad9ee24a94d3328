package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Store is one open generation of a medkb store.
type Store struct {
	dir      string // the store directory (holding CURRENT)
	gen      string // generation name, e.g. "gen-000001"
	db       *bolt.DB
	readOnly bool
	writer   *WriterLock // held by a read-write Store until Close
	broken   bool        // a write transaction panicked; see Close
	reader   *readerMark // a read-only Store's record (nil if it could not be made)
	segs     segLocator  // where vector segments lie in the file; see VectorsAt
}

// Meta is the store-wide metadata.
type Meta struct {
	Schema   int
	Embedder string // "" until the first write
	Dim      int
	Seq      uint64 // write sequence of the last committed write
	NextOrd  uint64 // ordinal the next chunk will get
	Docs     int
	Chunks   int
	Vectors  int // live vector slots
	Tiers    [4]int
	Entities int
	Triples  int
	// From is the generation this one was rebuilt from (SetFrom); "" for
	// a store's first generation.
	From string
	// GraphSeq counts the graph writes (PutGraph): a derived form of the
	// graph that records it knows whether it is current. 0 for a store
	// whose graph was written before it was counted.
	GraphSeq uint64
	// Quantize is how the vector slab is held in memory: QuantizeF32 or
	// QuantizeInt8, QuantizeNone when nothing is recorded (SetQuantize).
	Quantize string
	// Backend is the retrieval backend the store was created with, as
	// its owner wrote it (SetBackend); "" for the embedded indexes.
	// BackendSeq is the write sequence that backend reflects.
	Backend    string
	BackendSeq uint64
}

// Open opens the store in dir at the generation CURRENT names, creating
// dir and a first generation when dir is missing or empty (unless opts is
// read-only). A read-write Store holds the writer lock (see LockWriter)
// until Close; it is taken before CURRENT is read, so a rebuild cannot
// replace the generation under it.
func Open(dir string, opts *Options) (*Store, error) {
	if opts != nil && opts.ReadOnly {
		return openDir(dir, opts)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lock, err := LockWriter(dir, opts.lockTimeout())
	if err != nil {
		return nil, err
	}
	s, err := openDir(dir, opts)
	if err != nil {
		lock.Release()
		return nil, err
	}
	s.writer, lock.holder = lock, s
	return s, nil
}

// openDir is Open without the writer lock.
func openDir(dir string, opts *Options) (*Store, error) {
	readOnly := opts != nil && opts.ReadOnly
	gen := ""
	if opts != nil {
		gen = opts.Generation
	}
	if gen == "" {
		var err error
		gen, err = Current(dir)
		if errors.Is(err, ErrNotStore) { // no CURRENT file
			empty, eerr := isEmptyDir(dir)
			switch {
			case eerr != nil:
				return nil, eerr
			case !empty:
				return nil, fmt.Errorf("%w: %s is not empty and has no CURRENT file%s", ErrNotStore, dir, dataHint(dir, "", ""))
			case readOnly:
				return nil, fmt.Errorf("%w: %s (ingest something first)", ErrMissing, dir)
			}
			return create(dir, opts)
		}
		if err != nil {
			return nil, err
		}
	}
	return openGen(dir, gen, opts, false)
}

// create makes dir with a first generation and points CURRENT at it.
func create(dir string, opts *Options) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	gen := GenName(1)
	if err := os.MkdirAll(filepath.Join(dir, gen), 0o755); err != nil {
		return nil, err
	}
	s, err := openGen(dir, gen, opts, true)
	if err != nil {
		return nil, err
	}
	if err := SetCurrent(dir, gen); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// CreateGeneration makes a new, empty generation directory in dir (for a
// rebuild) and opens it read-write. CURRENT is not changed. The caller
// holds the writer lock (LockWriter) and does not get a second one.
func CreateGeneration(dir string) (*Store, error) {
	gen, err := NextGeneration(dir)
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(filepath.Join(dir, gen), 0o755); err != nil {
		return nil, err
	}
	return openGen(dir, gen, nil, true)
}

// OpenGeneration opens generation gen of l's store read-write for the
// holder of l, which gets no second lock. A rebuild through an open
// read-write Store opens the generation it built before it publishes it,
// so that no reader, which could hold the writer off, gets there first.
// The new Store does not own l until the old one passes it on
// (PassWriter): closing it leaves the lock held.
func (l *WriterLock) OpenGeneration(gen string, timeout time.Duration) (*Store, error) {
	if l.f == nil {
		panic("medkb: store.WriterLock.OpenGeneration after Release")
	}
	return openGen(l.dir, gen, &Options{LockTimeout: timeout}, false)
}

// Writer returns the writer lock a read-write Store holds, nil for a
// read-only one: its owner publishes and prunes generations with it
// rather than with a second lock, which its own would refuse.
func (s *Store) Writer() *WriterLock { return s.writer }

// PassWriter moves the writer lock s holds to to, a read-write Store of
// another generation opened under it (WriterLock.OpenGeneration):
// closing s then closes only its file, and closing to releases the lock.
// The lock is never let go in between, so no other writer can come
// between a rebuild and the switch of its DB to the new generation.
func (s *Store) PassWriter(to *Store) {
	if s.writer == nil || to.writer != nil || to.readOnly || to.dir != s.dir {
		panic("medkb: store.PassWriter: from a Store without the writer lock, or to one that cannot take it")
	}
	to.writer, s.writer = s.writer, nil
	to.writer.holder = to
}

// writable refuses a read-write open of a file whose damage a write
// would make worse (read-only opens may read what is left): an invalid
// meta page, at whose older transaction bbolt would open the file, so
// that the next commit overwrites what the lost one wrote; or a damaged
// page, which bbolt trusts when a write rewrites it (a page header
// naming a billion overflow pages once made an ingest free them one by
// one, for minutes). The page walk reads only page headers and
// elements, not overflow pages: a few hundred milliseconds on a store of
// 200,000 documents.
func writable(bf *boltFile, readOnly bool, dir string) error {
	if readOnly {
		return nil
	}
	problems := bf.metaProblems()
	if len(problems) == 0 {
		problems, _ = bf.checkPages(1)
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("%w; a read-write open could make it worse: restore a backup, "+
		"or export what is readable (medkb export --db %s) into a new store", problems[0], dir)
}

// openGen opens generation gen of dir. Only create makes a new bbolt file
// (in a generation directory made just before); otherwise the file must
// exist and pass openBoltFile's validation before bbolt maps it, and it
// must be a medkb file (init).
func openGen(dir, gen string, opts *Options, create bool) (*Store, error) {
	readOnly := opts != nil && opts.ReadOnly
	path := filepath.Join(dir, gen, dbFile)
	if !create {
		if _, err := os.Stat(filepath.Join(dir, gen)); errors.Is(err, fs.ErrNotExist) {
			return nil, corruptFile(filepath.Join(dir, currentFile), "names %s, which does not exist%s", gen, dataHint(dir, gen, noData))
		}
		bf, err := openBoltFile(path)
		if err != nil {
			var ce *corruptError
			if errors.As(err, &ce) {
				none := "; restore it from a backup, or check it (medkb check) for what is left"
				if _, serr := os.Stat(path); serr != nil {
					none = noData
				}
				ce.msg += dataHint(dir, gen, none)
			}
			return nil, err
		}
		err = writable(bf, readOnly, dir)
		bf.Close()
		if err != nil {
			return nil, err
		}
	}
	bopts := &bolt.Options{
		Timeout:         opts.lockTimeout(),
		ReadOnly:        readOnly,
		FreelistType:    bolt.FreelistMapType,
		InitialMmapSize: 64 << 20,
	}
	var db *bolt.DB
	var err error
	if create { // a new file nobody else can have open
		err = guard(path, nil, func() (err error) {
			db, err = bolt.Open(path, 0o644, bopts)
			return err
		})
	} else {
		db, err = openBolt(dir, gen, path, bopts)
	}
	if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrLocked) {
		err = fmt.Errorf("medkb: open %s: %w", path, err)
	}
	if err != nil {
		return nil, err
	}
	s := &Store{dir: dir, gen: gen, db: db, readOnly: readOnly}
	if readOnly {
		s.reader = markReader(dir, gen)
	}
	if err := s.init(create); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// init creates the buckets of a new file, and checks that an existing one
// is a medkb file of a schema this package reads.
func (s *Store) init(create bool) error {
	check := func(tx *bolt.Tx) error {
		m := tx.Bucket(bucketMeta)
		if m == nil {
			return &corruptError{msg: "no meta bucket: not a medkb file", kind: errNotMedkb}
		}
		v := getU64(m, keySchema)
		if v == 0 {
			return corruptf("no schema version: not a medkb file")
		}
		if v > SchemaVersion {
			return fmt.Errorf("%w: %d > %d; upgrade medkb to read %s", ErrNewerSchema, v, SchemaVersion, s.dir)
		}
		for _, name := range allBuckets {
			if tx.Bucket(name) == nil {
				return corruptf("bucket %s is missing", name)
			}
		}
		return nil
	}
	if s.readOnly {
		return s.view(check)
	}
	return s.update(func(tx *bolt.Tx) error {
		if create && tx.Bucket(bucketMeta) == nil {
			for _, name := range allBuckets {
				if _, err := tx.CreateBucketIfNotExists(name); err != nil {
					return err
				}
			}
			putU64(tx.Bucket(bucketMeta), keySchema, SchemaVersion)
		}
		return check(tx)
	})
}

// Close releases the file and its locks. A Store whose write transaction
// failed on a damaged page may hold bbolt's locks in a state where closing
// would wait forever; its file is left to the end of the process.
func (s *Store) Close() error {
	var err error
	if !s.broken {
		err = s.db.Close()
	}
	s.reader.release()
	return errors.Join(err, s.segs.close(), s.writer.Release())
}

// Dir returns the store directory; Generation the open generation's name.
func (s *Store) Dir() string        { return s.dir }
func (s *Store) Generation() string { return s.gen }

// GenDir returns the open generation's directory (where derived indexes live).
func (s *Store) GenDir() string { return filepath.Join(s.dir, s.gen) }

// Path returns the bbolt file's path.
func (s *Store) Path() string { return filepath.Join(s.GenDir(), dbFile) }

// ReadOnly reports whether the store was opened read-only.
func (s *Store) ReadOnly() bool { return s.readOnly }

// Meta reads the store-wide metadata.
func (s *Store) Meta() (Meta, error) {
	var m Meta
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketMeta)
		m = Meta{
			Schema:     int(getU64(b, keySchema)),
			Embedder:   string(b.Get(keyEmbedder)),
			Dim:        int(getU64(b, keyDim)),
			Seq:        getU64(b, keySeq),
			NextOrd:    getU64(b, keyNextOrd),
			Docs:       int(getU64(b, keyDocs)),
			Chunks:     int(getU64(b, keyChunks)),
			Vectors:    int(getU64(b, keyLive)),
			Entities:   int(getU64(b, keyEntities)),
			Triples:    int(getU64(b, keyTriples)),
			From:       string(b.Get(keyFrom)),
			GraphSeq:   getU64(b, keyGraphSeq),
			Quantize:   string(b.Get(keyQuantize)),
			Backend:    string(b.Get(keyBackend)),
			BackendSeq: getU64(b, keyBackendSeq),
		}
		for i := range m.Tiers {
			m.Tiers[i] = int(getU64(b, keyTierDocs[i+1]))
		}
		return nil
	})
	return m, err
}

// SetEmbedder records the embedder that builds this store's vectors. It
// succeeds when none is recorded yet or the same one is; otherwise it
// returns ErrEmbedderMismatch with a message that says how to proceed.
func (s *Store) SetEmbedder(name string, dim int) error {
	if s.readOnly {
		return ErrReadOnly
	}
	return s.update(func(tx *bolt.Tx) error {
		return checkEmbedder(tx.Bucket(bucketMeta), name, dim)
	})
}

// SetFrom records that this generation was rebuilt from generation gen,
// once the rebuild is complete: Prune may then remove gen and older
// generations even when they hold more documents (deleted since).
func (s *Store) SetFrom(gen string) error { return s.putMeta(keyFrom, gen) }

// putMeta records v under key in the meta bucket, or removes key when v
// is "": the setters of the meta strings that read back as "" when unset.
func (s *Store) putMeta(key []byte, v string) error {
	if s.readOnly {
		return ErrReadOnly
	}
	return s.update(func(tx *bolt.Tx) error {
		if v == "" {
			return tx.Bucket(bucketMeta).Delete(key)
		}
		return tx.Bucket(bucketMeta).Put(key, []byte(v))
	})
}

func checkEmbedder(m *bolt.Bucket, name string, dim int) error {
	have := string(m.Get(keyEmbedder))
	haveDim := int(getU64(m, keyDim))
	if have == "" {
		if err := m.Put(keyEmbedder, []byte(name)); err != nil {
			return err
		}
		putU64(m, keyDim, uint64(dim))
		return nil
	}
	if have != name || haveDim != dim {
		return fmt.Errorf("%w: the store was built with %s (dim %d) but this run uses %s (dim %d); "+
			"use the same embedder, or rebuild the store with the new one (medkb rebuild --embedder ...)",
			ErrEmbedderMismatch, have, haveDim, name, dim)
	}
	return nil
}

func getU64(b *bolt.Bucket, k []byte) uint64 {
	v := b.Get(k)
	if len(v) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(v)
}

// putU64 stores v; the only possible error (a read-only transaction) cannot
// happen inside Update, so it panics as an assertion.
func putU64(b *bolt.Bucket, k []byte, v uint64) {
	if err := b.Put(k, u64key(v)); err != nil {
		panic(fmt.Sprintf("medkb: meta put %s: %v", k, err))
	}
}

func addU64(b *bolt.Bucket, k []byte, delta int) {
	putU64(b, k, uint64(int64(getU64(b, k))+int64(delta)))
}
