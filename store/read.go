package store

import (
	"encoding/binary"
	"math"
	"unsafe"

	bolt "go.etcd.io/bbolt"

	"github.com/medkb/medkb/internal/base"
)

// Chunks reads the chunks with the given ordinals in one transaction; a
// missing ordinal gives a nil entry.
func (s *Store) Chunks(ords []uint64) ([]*base.Chunk, error) {
	out := make([]*base.Chunk, len(ords))
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketChunks)
		for i, ord := range ords {
			v := b.Get(u64key(ord))
			if v == nil {
				continue
			}
			c, err := decodeChunk(ord, v)
			if err != nil {
				return err
			}
			out[i] = c
		}
		return nil
	})
	return out, err
}

// Doc reads document id and its chunk ordinals; a missing id gives nil.
func (s *Store) Doc(id string) (*base.Doc, []uint64, error) {
	var rec *docRecord
	err := s.view(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketDocs).Get([]byte(id))
		if v == nil {
			return nil
		}
		rec = new(docRecord)
		return decodeDoc(id, v, rec)
	})
	if err != nil || rec == nil {
		return nil, nil, err
	}
	return &rec.Doc, rec.Chunks, nil
}

// Docs reads several documents in one transaction; missing ids give nil.
func (s *Store) Docs(ids []string) ([]*base.Doc, error) {
	out := make([]*base.Doc, len(ids))
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketDocs)
		for i, id := range ids {
			if v := b.Get([]byte(id)); v != nil {
				var rec docRecord
				if err := decodeDoc(id, v, &rec); err != nil {
					return err
				}
				out[i] = &rec.Doc
			}
		}
		return nil
	})
	return out, err
}

// DocInfo is what the store knows of a document besides the record.
type DocInfo struct {
	Ords      []uint64 // chunk ordinals, in order
	TierGiven bool     // the tier came from the input, not the classifier
}

// ForEachDoc calls fn for every document in id order, with its chunk
// ordinals, inside one read transaction (a consistent snapshot).
func (s *Store) ForEachDoc(fn func(d *base.Doc, info DocInfo) error) error {
	return s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketDocs).ForEach(func(k, v []byte) error {
			var rec docRecord
			if err := decodeDoc(string(k), v, &rec); err != nil {
				return err
			}
			return fn(&rec.Doc, DocInfo{Ords: rec.Chunks, TierGiven: rec.TierGiven})
		})
	})
}

// LoadVectors reads every vector slot, segment by segment, into one slab:
// slot i of the result holds ordinal i. Dead slots are included. alloc
// provides the slab's zeroed storage (nil means make).
func (s *Store) LoadVectors(alloc func(n int) []float32) (slots []base.Slot, vecs []float32, dim int, err error) {
	if alloc == nil {
		alloc = func(n int) []float32 { return make([]float32, n) }
	}
	err = s.view(func(tx *bolt.Tx) error {
		mapped := s.mapBase()
		meta := tx.Bucket(bucketMeta)
		dim = int(getU64(meta, keyDim))
		n := int(getU64(meta, keyNextOrd))
		if dim == 0 || n == 0 {
			return nil
		}
		size := slotHeaderSize + 4*dim
		if dim > maxDim || uint64(n)*uint64(size) > uint64(tx.Size()) {
			return corruptf("meta names %d vector slots of dimension %d, more than the file holds", n, dim)
		}
		slots = make([]base.Slot, n)
		vecs = alloc(n * dim)
		next := 0
		err := tx.Bucket(bucketVecs).ForEach(func(k, v []byte) error {
			seg := int(decodeU32(k))
			if seg*SegmentSlots != next || len(v)%size != 0 || next+len(v)/size > n {
				return corruptf("vector segment %d out of place or torn", seg)
			}
			for off := 0; off < len(v); off += size {
				slots[next] = getSlot(v[off:], uint64(next))
				decodeFloats(vecs[next*dim:(next+1)*dim], v[off+slotHeaderSize:off+size])
				next++
			}
			releaseMapped(v, mapped, tx.Size()) // the slab has them: do not count them twice
			return nil
		})
		releaseRange(mapped, mapped+uintptr(tx.Size()), mapped, tx.Size())
		if err == nil && next != n {
			err = corruptf("vector segments hold %d slots, %d expected", next, n)
		}
		return err
	})
	return slots, vecs, dim, err
}

// decodeFloats fills dst from little-endian float32s in src: on a
// little-endian machine, where they are dst's bytes already, with one
// copy (loading a 100k x 384 slab at open took 100 ms decoding a float
// at a time).
func decodeFloats(dst []float32, src []byte) {
	src = src[:4*len(dst)]
	if littleEndian {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), len(src)), src)
		return
	}
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
	}
}

// DictID returns the dictionary id of a string attribute value, or false
// when no document has it.
func (s *Store) DictID(v string) (uint32, bool, error) {
	var id uint32
	err := s.view(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucketDict).Get([]byte(v)); b != nil {
			id = decodeU32(b)
		}
		return nil
	})
	return id, id != 0, err
}

// Replay returns what changed after sequence since, for a derived index
// that lags: the ordinals deleted, the chunks added that still exist
// (with their documents and days; Slot and Vectors are not filled), and
// the sequence the result brings it to. Since 0 means a new, empty
// index: every chunk is returned. Replaying is idempotent, so a crash during replay only means
// replaying again.
func (s *Store) Replay(since uint64) (*Change, error) {
	ch := &Change{}
	err := s.view(func(tx *bolt.Tx) error {
		ch.Seq = getU64(tx.Bucket(bucketMeta), keySeq)
		if since >= ch.Seq {
			return nil
		}
		if since == 0 {
			return s.collectAdded(tx, allOrds(tx), ch)
		}
		logs := tx.Bucket(bucketLog)
		c := logs.Cursor()
		k, v := c.Seek(u64key(since + 1))
		if k == nil || decodeU64(k) != since+1 {
			return corruptf("replay log does not reach back to sequence %d; rebuild the index (medkb rebuild)", since+1)
		}
		var added []uint64
		for ; k != nil; k, v = c.Next() {
			e, err := decodeLog(v)
			if err != nil {
				return err
			}
			ch.Deleted = append(ch.Deleted, e.Deleted...)
			added = append(added, e.Added...)
		}
		return s.collectAdded(tx, added, ch)
	})
	return ch, err
}

// collectAdded loads the chunks among ords that still exist, with their
// documents.
func (s *Store) collectAdded(tx *bolt.Tx, ords []uint64, ch *Change) error {
	chunks, docs := tx.Bucket(bucketChunks), tx.Bucket(bucketDocs)
	type docDay struct {
		doc *base.Doc
		day base.Day
	}
	docCache := map[string]docDay{}
	for _, ord := range ords {
		v := chunks.Get(u64key(ord))
		if v == nil {
			continue // deleted again by a later write
		}
		c, err := decodeChunk(ord, v)
		if err != nil {
			return err
		}
		d, ok := docCache[c.Doc]
		if !ok {
			dv := docs.Get([]byte(c.Doc))
			if dv == nil {
				return corruptf("chunk %d names missing document %q", ord, c.Doc)
			}
			var rec docRecord
			if err := decodeDoc(c.Doc, dv, &rec); err != nil {
				return err
			}
			day, _ := base.ParseDay(rec.Doc.Time) // checked when written
			d = docDay{&rec.Doc, day}
			docCache[c.Doc] = d
		}
		ch.Added = append(ch.Added, Added{Chunk: c, Doc: d.doc, Day: d.day})
	}
	return nil
}

// allOrds lists every stored chunk ordinal in order.
func allOrds(tx *bolt.Tx) []uint64 {
	var ords []uint64
	c := tx.Bucket(bucketChunks).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		ords = append(ords, decodeU64(k))
	}
	return ords
}

// littleEndian says whether this machine stores numbers as the store does.
var littleEndian = ne.Uint16([]byte{1, 0}) == 1
