package store

import (
	"fmt"
	"os"
	"sync"
	"unsafe"

	bolt "go.etcd.io/bbolt"

	"github.com/medkb/medkb/internal/base"
)

// Quantize values recorded by SetQuantize.
const (
	QuantizeNone = ""     // nothing recorded: the loader chooses
	QuantizeF32  = "f32"  // the float32 vectors are held in memory
	QuantizeInt8 = "int8" // only int8 codes are, the float32 ones read back for rescoring
)

// SetQuantize records how the store's vector slab is held in memory
// (QuantizeF32 or QuantizeInt8, or QuantizeNone to forget the choice);
// Meta.Quantize reads it back. The store's vectors are float32 on disk
// either way: the choice is the loader's, so it can be changed at any
// time.
func (s *Store) SetQuantize(q string) error {
	if q != QuantizeNone && q != QuantizeF32 && q != QuantizeInt8 {
		return fmt.Errorf("medkb: quantize %q: use %q, %q or nothing", q, QuantizeF32, QuantizeInt8)
	}
	return s.putMeta(keyQuantize, q)
}

// releaseEvery is how many segments EachVectors reads between releases
// of the whole mapping: reading a segment faults in blocks of its
// neighbours that were released already, about 60 MB over a 1M x 384
// load if left to the end, which would count in an int8 DB's peak.
const releaseEvery = 64

// EachVectors reads every vector slot in ordinal order, dead ones
// included, without holding the slab: it calls start once with the
// number of slots and the dimension, then fn with each segment's slots
// and vectors (SegmentSlots at most; both buffers are reused after fn
// returns). An int8 index loads this way, keeping only codes. The pages
// read are released from the process as it goes (see releaseMapped).
func (s *Store) EachVectors(start func(n, dim int), fn func(slots []base.Slot, vecs []float32) error) error {
	return s.view(func(tx *bolt.Tx) error {
		mapped := s.mapBase()
		meta := tx.Bucket(bucketMeta)
		dim := int(getU64(meta, keyDim))
		n := int(getU64(meta, keyNextOrd))
		if dim == 0 || n == 0 {
			start(0, dim)
			return nil
		}
		size := slotHeaderSize + 4*dim
		if dim > maxDim || uint64(n)*uint64(size) > uint64(tx.Size()) {
			return corruptf("meta names %d vector slots of dimension %d, more than the file holds", n, dim)
		}
		start(n, dim)
		slots := make([]base.Slot, SegmentSlots)
		vecs := make([]float32, SegmentSlots*dim)
		next := 0
		err := tx.Bucket(bucketVecs).ForEach(func(k, v []byte) error {
			seg := int(decodeU32(k))
			if seg*SegmentSlots != next || len(v)%size != 0 || len(v)/size > SegmentSlots || next+len(v)/size > n {
				return corruptf("vector segment %d out of place or torn", seg)
			}
			m := len(v) / size
			for i := range m {
				off := i * size
				slots[i] = getSlot(v[off:], uint64(next+i))
				decodeFloats(vecs[i*dim:(i+1)*dim], v[off+slotHeaderSize:off+size])
			}
			s.segs.note(tx, uint32(seg), v, mapped)
			releaseMapped(v, mapped, tx.Size())
			if seg%releaseEvery == releaseEvery-1 {
				releaseRange(mapped, mapped+uintptr(tx.Size()), mapped, tx.Size())
			}
			next += m
			return fn(slots[:m], vecs[:m*dim])
		})
		releaseRange(mapped, mapped+uintptr(tx.Size()), mapped, tx.Size())
		if err == nil && next != n {
			err = corruptf("vector segments hold %d slots, %d expected", next, n)
		}
		return err
	})
}

// VectorsAt reads the vectors of ords, which must be ascending, and
// calls fn with each (i indexes ords; v is reused after fn returns). It
// is how an int8 index rescores its candidates, so it must neither be
// slow nor grow the process: it reads each vector with a positional read
// of the file (pread), through the page cache, not through bbolt's
// mapping, at the file offset of its segment that EachVectors recorded
// (see segLocator). Touching the mapping instead faulted in, for each
// vector, the large folio around it, and releasing it again made 42
// random vectors of a 1M store cost 8-19 ms under load, against well
// under a millisecond by pread.
func (s *Store) VectorsAt(ords []uint64, fn func(i int, v []float32)) error {
	return s.view(func(tx *bolt.Tx) error {
		dim := int(getU64(tx.Bucket(bucketMeta), keyDim))
		size := slotHeaderSize + 4*dim
		raw := make([]byte, 4*dim)
		buf := make([]float32, dim)
		path := s.Path() // for the first read's open; not joined again per vector
		for i, ord := range ords {
			seg := uint32(ord / SegmentSlots)
			loc, err := s.segs.find(tx, seg, s.mapBase)
			if err != nil {
				return err
			}
			off := int64(ord%SegmentSlots) * int64(size)
			if dim == 0 || off+int64(size) > loc.n {
				return corruptf("vector slot %d is not in its segment %d", ord, seg)
			}
			if err := s.segs.readAt(path, raw, loc.off+off+slotHeaderSize); err != nil {
				return err
			}
			decodeFloats(buf, raw)
			fn(i, buf)
		}
		return nil
	})
}

// segLocator remembers where each vector segment's value lies in the
// bbolt file, for preads. Values move only when a write transaction
// rewrites their pages, and every committed write changes the
// transaction id, so locations are kept for one transaction id and
// forgotten when it changes (within this process, a write; a read-only
// Store excludes writers, so its locations stay). A location unknown is
// found with a Get, which touches the mapping once for the segment.
type segLocator struct {
	mu   sync.Mutex
	txid int
	locs map[uint32]segLoc
	file *os.File // the bbolt file, opened for reading at the first pread
}

type segLoc struct {
	off, n int64 // file offset and length of the segment's value
}

// note records the location of segment seg's value v, read in place
// from the mapping at base in transaction tx.
func (l *segLocator) note(tx *bolt.Tx, seg uint32, v []byte, base uintptr) {
	if len(v) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.txid != tx.ID() || l.locs == nil {
		l.txid, l.locs = tx.ID(), map[uint32]segLoc{}
	}
	l.locs[seg] = segLoc{off: int64(uintptr(unsafe.Pointer(&v[0])) - base), n: int64(len(v))}
}

// find returns the location of segment seg as of transaction tx.
func (l *segLocator) find(tx *bolt.Tx, seg uint32, base func() uintptr) (segLoc, error) {
	l.mu.Lock()
	loc, ok := l.locs[seg]
	ok = ok && l.txid == tx.ID()
	l.mu.Unlock()
	if ok {
		return loc, nil
	}
	v := tx.Bucket(bucketVecs).Get(u32key(seg))
	if v == nil {
		return segLoc{}, corruptf("vector segment %d is missing", seg)
	}
	b := base()
	l.note(tx, seg, v, b)
	releaseMapped(v[:1], b, tx.Size())
	return segLoc{off: int64(uintptr(unsafe.Pointer(&v[0])) - b), n: int64(len(v))}, nil
}

// readAt fills p from the file at path at offset off.
func (l *segLocator) readAt(path string, p []byte, off int64) error {
	l.mu.Lock()
	if l.file == nil {
		f, err := os.Open(path)
		if err != nil {
			l.mu.Unlock()
			return err
		}
		l.file = f
	}
	f := l.file
	l.mu.Unlock()
	_, err := f.ReadAt(p, off)
	return err
}

func (l *segLocator) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file == nil {
		return nil
	}
	err := l.file.Close()
	l.file = nil
	return err
}

// mapBase is the address where bbolt maps the file, for releaseMapped;
// it is valid while a transaction is open.
func (s *Store) mapBase() uintptr { return s.db.Info().Data }
