package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
)

// The bbolt file format, as far as this package reads it itself (bbolt
// keeps these in an internal package). Every integer is in the machine's
// byte order, as bbolt writes it.
const (
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	noFreelist     = ^uint64(0) // a meta's freelist when none is stored
	pageHeaderSize = 16         // id u64, flags u16, count u16, overflow u32
	elemSize       = 16         // branch: pos, ksize u32, pgid u64; leaf: flags, pos, ksize, vsize u32
	bucketHeader   = 16         // a bucket's value: root pgid u64, sequence u64

	branchPage   = 0x01
	leafPage     = 0x02
	metaPage     = 0x04
	freelistPage = 0x10
	bucketLeaf   = 0x01 // a leaf element that is a nested bucket

	minPageSize = 512
	maxPageSize = 1 << 16
)

var ne = binary.NativeEndian

// boltMeta is one of the two meta pages of a bbolt file.
type boltMeta struct {
	pageSize uint32
	root     uint64 // page of the root bucket
	freelist uint64
	pgid     uint64 // high-water mark: pages [0, pgid) are in use or free
	txid     uint64
}

// parseMeta decodes the meta page at the start of b and validates it as
// bbolt does (magic, version, checksum).
func parseMeta(b []byte) (boltMeta, error) {
	if len(b) < pageHeaderSize+64 {
		return boltMeta{}, errors.New("cut short")
	}
	if ne.Uint16(b[8:]) != metaPage {
		return boltMeta{}, fmt.Errorf("not a meta page (flags %#x)", ne.Uint16(b[8:]))
	}
	m := b[pageHeaderSize:]
	if ne.Uint32(m[0:]) != boltMagic {
		return boltMeta{}, errors.New("no bbolt magic number")
	}
	if v := ne.Uint32(m[4:]); v != boltVersion {
		return boltMeta{}, fmt.Errorf("bbolt format version %d, not %d", v, boltVersion)
	}
	h := fnv.New64a()
	h.Write(m[:56])
	if h.Sum64() != ne.Uint64(m[56:]) {
		return boltMeta{}, errors.New("checksum mismatch")
	}
	return boltMeta{pageSize: ne.Uint32(m[8:]), root: ne.Uint64(m[16:]), freelist: ne.Uint64(m[32:]),
		pgid: ne.Uint64(m[40:]), txid: ne.Uint64(m[48:])}, nil
}

// boltFile is a bbolt file read with ordinary reads, never mapped, so that
// a damaged file gives errors and not memory faults.
type boltFile struct {
	path     string
	f        *os.File
	size     int64
	pageSize int
	meta     boltMeta // the meta bbolt uses: the valid one with the larger txid
	metaErr  [2]error // why meta page 0 or 1 is invalid (bbolt then uses the other)
	scratch  []byte   // page reads land here first, to learn their length
	pages    uint64   // whole pages in the file
	free     []uint64 // the freelist's pages
}

// openBoltFile validates the file at path before bbolt maps it: it must
// exist, hold at least one valid meta page, be a whole number of pages
// and reach the highest page that meta names, and the meta's root and
// freelist must lie below that mark. This is what keeps a truncated file
// from ever being mapped: bbolt would fault (SIGBUS) reading past its end.
// The caller closes the result.
func openBoltFile(path string) (*boltFile, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, corruptFile(path, "the file is missing")
	}
	if err != nil {
		return nil, fmt.Errorf("medkb: %w", err)
	}
	bf := &boltFile{path: path, f: f}
	if err := bf.validate(); err != nil {
		f.Close()
		return nil, err
	}
	return bf, nil
}

func (bf *boltFile) Close() error { return bf.f.Close() }

func (bf *boltFile) validate() error {
	st, err := bf.f.Stat()
	if err != nil {
		return fmt.Errorf("medkb: %w", err)
	}
	bf.size = st.Size()
	if bf.size == 0 {
		return corruptFile(bf.path, "the file is empty")
	}
	head := make([]byte, 2*maxPageSize)
	n, err := bf.f.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return fmt.Errorf("medkb: read %s: %w", bf.path, err)
	}
	head = head[:n]
	m0, err0 := parseMeta(head)
	var m1 boltMeta
	err1 := errors.New("no page size to find it by")
	if err0 == nil {
		if ps := int(m0.pageSize); ps <= len(head) {
			m1, err1 = parseMeta(head[ps:])
		}
	} else {
		// Meta page 0 is unreadable: find page 1 at each possible page size.
		for ps := minPageSize; ps <= maxPageSize && ps < len(head); ps *= 2 {
			if m1, err1 = parseMeta(head[ps:]); err1 == nil && int(m1.pageSize) == ps {
				break
			}
			err1 = errors.New("not found at any page size")
		}
	}
	bf.metaErr = [2]error{err0, err1}
	switch {
	case err0 != nil && err1 != nil:
		if bf.size < 2*minPageSize {
			return corruptFile(bf.path, "truncated to %d bytes, less than two pages", bf.size)
		}
		return corruptFile(bf.path, "page 0: meta page invalid (%v); page 1: meta page invalid (%v): not a bbolt file, or both meta pages damaged", err0, err1)
	case err0 != nil:
		bf.meta = m1
	case err1 != nil || m0.txid >= m1.txid:
		bf.meta = m0
	default:
		bf.meta = m1
	}
	ps := int(bf.meta.pageSize)
	if ps < minPageSize || ps > maxPageSize || ps&(ps-1) != 0 {
		return corruptFile(bf.path, "meta page names page size %d", ps)
	}
	bf.pageSize = ps
	bf.pages = uint64(bf.size) / uint64(ps)
	m := bf.meta
	switch {
	case bf.size%int64(ps) != 0:
		return corruptFile(bf.path, "truncated: %d bytes is not a whole number of %d-byte pages", bf.size, ps)
	case m.pgid > bf.pages:
		return corruptFile(bf.path, "truncated: the meta page names %d pages, the file holds %d", m.pgid, bf.pages)
	case m.pgid < 4:
		return corruptFile(bf.path, "meta page names %d pages, fewer than an empty file has", m.pgid)
	case m.root < 2 || m.root >= m.pgid:
		return corruptFile(bf.path, "meta page names root page %d, outside pages 2..%d", m.root, m.pgid-1)
	case m.freelist != noFreelist && (m.freelist < 2 || m.freelist >= m.pgid):
		return corruptFile(bf.path, "meta page names freelist page %d, outside pages 2..%d", m.freelist, m.pgid-1)
	}
	if m.freelist != noFreelist {
		var err error
		if bf.free, err = bf.readFreelist(m.freelist); err != nil {
			return corruptFile(bf.path, "%v", err)
		}
	}
	return nil
}

// metaProblems reports a meta page that is invalid while the other is
// valid: bbolt opens the file at the other one's transaction, so the last
// write may be lost.
func (bf *boltFile) metaProblems() []error {
	var problems []error
	for i, err := range bf.metaErr {
		if err != nil {
			problems = append(problems, corruptFile(bf.path, "page %d: meta page invalid (%v); bbolt uses the other one (transaction %d): the last write may be lost", i, err, bf.meta.txid))
		}
	}
	return problems
}

// readFreelist reads the freelist page id and checks that it fits the file.
func (bf *boltFile) readFreelist(id uint64) ([]uint64, error) {
	p, err := bf.page(id)
	if err != nil {
		return nil, err
	}
	if flags := ne.Uint16(p[8:]); flags != freelistPage {
		return nil, fmt.Errorf("page %d: the freelist page has type %#x", id, flags)
	}
	data := p[pageHeaderSize:]
	count := uint64(ne.Uint16(p[10:]))
	if count == 0xFFFF { // the real count is the first element
		count = ne.Uint64(data)
		data = data[8:]
	}
	if count > uint64(len(data))/8 {
		return nil, fmt.Errorf("page %d: the freelist counts %d pages, its %d bytes hold %d", id, count, len(p), len(data)/8)
	}
	free := make([]uint64, count)
	for i := range free {
		free[i] = ne.Uint64(data[8*i:])
	}
	return free, nil
}

// page reads page id with its overflow pages, checking that it lies below
// the high-water mark and names itself.
func (bf *boltFile) page(id uint64) ([]byte, error) {
	if id >= bf.meta.pgid {
		return nil, fmt.Errorf("page %d: beyond the last page (%d)", id, bf.meta.pgid-1)
	}
	ps := uint64(bf.pageSize)
	if len(bf.scratch) != int(ps) {
		bf.scratch = make([]byte, ps)
	}
	first := bf.scratch
	if _, err := bf.f.ReadAt(first, int64(id*ps)); err != nil {
		return nil, fmt.Errorf("page %d: %w", id, err)
	}
	if self := ne.Uint64(first); self != id {
		return nil, fmt.Errorf("page %d: names itself page %d (zeroed or overwritten)", id, self)
	}
	overflow := uint64(ne.Uint32(first[12:]))
	if id+overflow >= bf.meta.pgid {
		return nil, fmt.Errorf("page %d: %d overflow pages run past the last page (%d)", id, overflow, bf.meta.pgid-1)
	}
	p := make([]byte, (overflow+1)*ps)
	copy(p, first)
	if overflow > 0 {
		if _, err := bf.f.ReadAt(p[ps:], int64((id+1)*ps)); err != nil {
			return nil, fmt.Errorf("page %d: %w", id, err)
		}
	}
	return p, nil
}

// corruptFile is an ErrCorrupt naming the file.
func corruptFile(path, format string, args ...any) error {
	return &corruptError{path: path, msg: fmt.Sprintf(format, args...)}
}

// corruptError is a damaged page or record. Errors found inside a
// transaction are made without the file; the transaction's wrapper (see
// Store.view) fills it in, so that every such error names the file.
type corruptError struct {
	path string
	msg  string
	kind error // a finer reason, for errors.Is inside this package; may be nil
}

func (e *corruptError) Error() string {
	if e.path == "" {
		return ErrCorrupt.Error() + ": " + e.msg
	}
	return ErrCorrupt.Error() + ": " + e.path + ": " + e.msg
}

func (e *corruptError) Unwrap() []error { return []error{ErrCorrupt, e.kind} }

// errNotMedkb is the kind of a valid bbolt file without medkb's buckets:
// a foreign file, or a generation whose creation was interrupted.
var errNotMedkb = errors.New("not a medkb file")

// corruptf is a corruptError whose file the transaction wrapper fills in.
func corruptf(format string, args ...any) error {
	return &corruptError{msg: fmt.Sprintf(format, args...)}
}
