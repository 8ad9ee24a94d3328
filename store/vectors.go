package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/medkb/medkb/internal/base"
)

// Quantize values recorded by SetQuantize.
const (
	QuantizeNone = ""     // the float32 vectors are held in memory
	QuantizeInt8 = "int8" // only int8 codes are, the float32 ones read back for rescoring
)

// SetQuantize records how the store's vector slab is held in memory
// (QuantizeNone or QuantizeInt8); Meta.Quantize reads it back. The
// store's vectors are float32 on disk either way: the choice is the
// loader's, so it can be changed at any time.
func (s *Store) SetQuantize(q string) error {
	if s.readOnly {
		return ErrReadOnly
	}
	if q != QuantizeNone && q != QuantizeInt8 {
		return fmt.Errorf("medkb: quantize %q: use %q or nothing", q, QuantizeInt8)
	}
	return s.update(func(tx *bolt.Tx) error {
		if q == QuantizeNone {
			return tx.Bucket(bucketMeta).Delete(keyQuantize)
		}
		return tx.Bucket(bucketMeta).Put(keyQuantize, []byte(q))
	})
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

// VectorsAt reads the vectors of ords, which must be ascending, in one
// read transaction, and calls fn with each (i indexes ords; v is reused
// after fn returns). It is how an int8 index rescores its candidates.
// The pages read are released from the process afterwards, so that
// rescoring does not, query after query, map the whole file in.
func (s *Store) VectorsAt(ords []uint64, fn func(i int, v []float32)) error {
	return s.view(func(tx *bolt.Tx) error {
		mapped := s.mapBase()
		dim := int(getU64(tx.Bucket(bucketMeta), keyDim))
		size := slotHeaderSize + 4*dim
		vecs := tx.Bucket(bucketVecs)
		buf := make([]float32, dim)
		seg, v := -1, []byte(nil)
		for i, ord := range ords {
			if want := int(ord / SegmentSlots); want != seg {
				if v != nil {
					releaseMapped(v, mapped, tx.Size())
				}
				seg, v = want, vecs.Get(u32key(uint32(want)))
			}
			off := int(ord%SegmentSlots) * size
			if dim == 0 || off+size > len(v) {
				return corruptf("vector slot %d is not in its segment %d", ord, seg)
			}
			decodeFloats(buf, v[off+slotHeaderSize:off+size])
			fn(i, buf)
		}
		if v != nil {
			releaseMapped(v, mapped, tx.Size())
		}
		return nil
	})
}

// mapBase is the address where bbolt maps the file, for releaseMapped;
// it is valid while a transaction is open.
func (s *Store) mapBase() uintptr { return s.db.Info().Data }
