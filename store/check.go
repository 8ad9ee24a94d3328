package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Check verifies the file and the invariants between buckets: every
// document's chunks exist and name it back, every chunk belongs to a
// document, the live vector slots are exactly the stored chunks, and the
// counters agree. It returns every problem found (nil when consistent).
func (s *Store) Check() []error {
	var problems []error
	add := func(format string, args ...any) {
		if len(problems) < 100 {
			problems = append(problems, fmt.Errorf(format, args...))
		}
	}
	err := s.db.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			add("bbolt: %v", err)
		}
		meta := tx.Bucket(bucketMeta)
		chunkDoc := map[uint64]string{}
		err := tx.Bucket(bucketChunks).ForEach(func(k, v []byte) error {
			c, err := decodeChunk(decodeU64(k), v)
			if err != nil {
				add("%v", err)
				return nil
			}
			chunkDoc[c.Ord] = c.Doc
			return nil
		})
		if err != nil {
			return err
		}
		var docs int
		var tiers [5]int
		owned := 0
		err = tx.Bucket(bucketDocs).ForEach(func(k, v []byte) error {
			docs++
			var rec docRecord
			if err := decodeDoc(string(k), v, &rec); err != nil {
				add("%v", err)
				return nil
			}
			if rec.ID != string(k) {
				add("document key %q holds id %q", k, rec.ID)
			}
			if !rec.Tier.Valid() {
				add("document %q has no tier", k)
			} else {
				tiers[rec.Tier]++
			}
			for _, ord := range rec.Chunks {
				switch owner, ok := chunkDoc[ord]; {
				case !ok:
					add("document %q lists missing chunk %d", k, ord)
				case owner != string(k):
					add("document %q lists chunk %d of %q", k, ord, owner)
				default:
					owned++
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if owned != len(chunkDoc) {
			add("%d chunks belong to no document", len(chunkDoc)-owned)
		}
		live := s.checkSlots(tx, chunkDoc, add)
		want := map[string][2]int{
			"documents": {docs, int(getU64(meta, keyDocs))},
			"chunks":    {len(chunkDoc), int(getU64(meta, keyChunks))},
			"vectors":   {live, int(getU64(meta, keyLive))},
		}
		for t := 1; t <= 4; t++ {
			want[fmt.Sprintf("T%d documents", t)] = [2]int{tiers[t], int(getU64(meta, keyTierDocs[t]))}
		}
		for name, v := range want {
			if v[0] != v[1] {
				add("counter of %s says %d, found %d", name, v[1], v[0])
			}
		}
		return nil
	})
	if err != nil {
		add("%v", err)
	}
	return problems
}

// checkSlots verifies that live slots are exactly the stored chunks and
// returns how many are live.
func (s *Store) checkSlots(tx *bolt.Tx, chunkDoc map[uint64]string, add func(string, ...any)) int {
	meta := tx.Bucket(bucketMeta)
	dim := int(getU64(meta, keyDim))
	next := getU64(meta, keyNextOrd)
	if dim == 0 {
		if len(chunkDoc) > 0 {
			add("%d chunks but no vector dimension recorded", len(chunkDoc))
		}
		return 0
	}
	size := slotHeaderSize + 4*dim
	live := 0
	var seen uint64
	tx.Bucket(bucketVecs).ForEach(func(k, v []byte) error {
		seg := uint64(decodeU32(k))
		if seg*SegmentSlots != seen || len(v)%size != 0 {
			add("vector segment %d out of place or torn", seg)
			return nil
		}
		for off := 0; off < len(v); off += size {
			ord := seen
			seen++
			_, stored := chunkDoc[ord]
			alive := v[off+5] == 1
			switch {
			case alive && !stored:
				live++
				add("vector slot %d is live but its chunk is missing", ord)
			case !alive && stored:
				add("chunk %d has a dead vector slot", ord)
			case alive:
				live++
			}
		}
		return nil
	})
	if seen != next {
		add("vector slots cover %d ordinals, next ordinal is %d", seen, next)
	}
	return live
}
