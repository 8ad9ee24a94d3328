package store

import (
	"encoding/json"
	"fmt"
	"sort"

	bolt "go.etcd.io/bbolt"

	"github.com/medkb/medkb/internal/base"
)

// DocWrite is one document to upsert: the record (tier and type already
// resolved), its chunks (ordinals are assigned by Write) and one
// normalised vector per chunk, concatenated.
type DocWrite struct {
	Doc base.Doc
	// Day is the day Doc.Time names (base.ParseDay; NoDay when it names
	// none), read once by whoever prepared the write and checked the
	// date: the store parses no date. The zero Day is 1970-01-01, not
	// NoDay.
	Day     base.Day
	Chunks  []base.Chunk
	Vectors []float32
	// TierGiven says Doc.Tier came from the input's tier field rather than
	// the classifier, so a rebuild keeps it instead of re-classifying.
	TierGiven bool
}

// Batch is one atomic write: upserts and deletes by document id. A
// document named twice keeps its last upsert; a delete of an unknown id is
// not an error.
type Batch struct {
	Put    []DocWrite
	Delete []string
	// Embedder and Dim name the vectors' embedder; the first write records
	// them and later writes must match (ErrEmbedderMismatch).
	Embedder string
	Dim      int
	// PruneLogThrough drops replay-log entries up to this sequence: the
	// caller passes the sequence every derived index has reached.
	PruneLogThrough uint64
}

// Added is one chunk a write added, with its document, for derived indexes.
type Added struct {
	Chunk *base.Chunk
	Doc   *base.Doc
	Day   base.Day // the day Doc.Time names
	Slot  base.Slot
}

// Change is what a committed write did.
type Change struct {
	Seq     uint64
	Deleted []uint64 // ordinals killed, ascending
	// DeletedDocs counts the documents Batch.Delete removed (an id not
	// stored is not counted; a replaced document is not either).
	DeletedDocs int
	Added       []Added   // new chunks, ascending by ordinal
	Vectors     []float32 // one row per Added, in order
}

// docRecord is the JSON value of the docs bucket.
type docRecord struct {
	base.Doc
	Chunks    []uint64 `json:"chunks"`
	TierGiven bool     `json:"tier_given,omitempty"`
}

// Write commits b in one transaction and reports the change.
func (s *Store) Write(b *Batch) (*Change, error) {
	if s.readOnly {
		return nil, ErrReadOnly
	}
	puts := lastPerID(b.Put)
	var ch *Change
	err := s.update(func(tx *bolt.Tx) error {
		w := newWriter(tx)
		if len(puts) > 0 {
			if err := checkEmbedder(w.meta, b.Embedder, b.Dim); err != nil {
				return err
			}
		}
		chunks := 0
		for i := range puts {
			chunks += len(puts[i].Chunks)
		}
		ch = &Change{Seq: getU64(w.meta, keySeq) + 1,
			Added: make([]Added, 0, chunks), Vectors: make([]float32, 0, chunks*b.Dim)}
		for _, id := range b.Delete {
			found, err := w.remove(id, ch)
			if err != nil {
				return err
			}
			if found {
				ch.DeletedDocs++
			}
		}
		for i := range puts {
			if err := w.put(&puts[i], b.Dim, ch); err != nil {
				return err
			}
		}
		sort.Slice(ch.Deleted, func(i, j int) bool { return ch.Deleted[i] < ch.Deleted[j] })
		if err := w.flushSegments(); err != nil {
			return err
		}
		added := make([]uint64, len(ch.Added))
		for i, a := range ch.Added {
			added[i] = a.Chunk.Ord
		}
		logs := tx.Bucket(bucketLog)
		if err := logs.Put(u64key(ch.Seq), encodeLog(&logEntry{Deleted: ch.Deleted, Added: added})); err != nil {
			return err
		}
		if err := pruneLog(logs, b.PruneLogThrough, ch.Seq); err != nil {
			return err
		}
		putU64(w.meta, keySeq, ch.Seq)
		putU64(w.meta, keyNextOrd, w.nextOrd)
		putU64(w.meta, keyNextDict, uint64(w.nextDict))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ch, nil
}

// lastPerID keeps the last upsert of each id, sorted by id so that bbolt
// inserts in key order.
func lastPerID(puts []DocWrite) []DocWrite {
	last := make(map[string]int, len(puts))
	for i := range puts {
		last[puts[i].Doc.ID] = i
	}
	out := make([]DocWrite, 0, len(last))
	for i := range puts {
		if last[puts[i].Doc.ID] == i {
			out = append(out, puts[i])
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Doc.ID < out[j].Doc.ID })
	return out
}

func pruneLog(logs *bolt.Bucket, through, current uint64) error {
	if through >= current {
		through = current - 1 // never drop the entry just written
	}
	// Collect first: deleting under a bbolt cursor can skip the next key.
	var old [][]byte
	c := logs.Cursor()
	for k, _ := c.First(); k != nil && decodeU64(k) <= through; k, _ = c.Next() {
		old = append(old, k)
	}
	for _, k := range old {
		if err := logs.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// writer holds the buckets and caches of one write transaction.
type writer struct {
	meta, docs, chunks, vecs, dict *bolt.Bucket
	nextOrd                        uint64
	nextDict                       uint32
	dictCache                      map[string]uint32
	segs                           map[uint32][]byte // segments touched, copied out of bbolt
}

func newWriter(tx *bolt.Tx) *writer {
	w := &writer{
		meta:      tx.Bucket(bucketMeta),
		docs:      tx.Bucket(bucketDocs),
		chunks:    tx.Bucket(bucketChunks),
		vecs:      tx.Bucket(bucketVecs),
		dict:      tx.Bucket(bucketDict),
		dictCache: make(map[string]uint32),
		segs:      make(map[uint32][]byte),
	}
	w.nextOrd = getU64(w.meta, keyNextOrd)
	w.nextDict = uint32(getU64(w.meta, keyNextDict))
	return w
}

// remove deletes document id and kills its chunks' slots; found says
// whether it was stored.
func (w *writer) remove(id string, ch *Change) (found bool, err error) {
	v := w.docs.Get([]byte(id))
	if v == nil {
		return false, nil
	}
	var rec docRecord
	if err := decodeDoc(id, v, &rec); err != nil {
		return false, err
	}
	for _, ord := range rec.Chunks {
		if err := w.chunks.Delete(u64key(ord)); err != nil {
			return false, err
		}
		if err := w.killSlot(ord); err != nil {
			return false, err
		}
		ch.Deleted = append(ch.Deleted, ord)
	}
	addU64(w.meta, keyDocs, -1)
	addU64(w.meta, keyChunks, -len(rec.Chunks))
	addU64(w.meta, keyLive, -len(rec.Chunks))
	if rec.Tier.Valid() {
		addU64(w.meta, keyTierDocs[rec.Tier], -1)
	}
	return true, w.docs.Delete([]byte(id))
}

func (w *writer) put(d *DocWrite, dim int, ch *Change) error {
	if !d.Doc.Tier.Valid() {
		panic(fmt.Sprintf("medkb: store.Write: document %q has no resolved tier", d.Doc.ID))
	}
	if len(d.Vectors) != len(d.Chunks)*dim {
		panic(fmt.Sprintf("medkb: store.Write: document %q has %d floats for %d chunks of dim %d",
			d.Doc.ID, len(d.Vectors), len(d.Chunks), dim))
	}
	if _, err := w.remove(d.Doc.ID, ch); err != nil {
		return err
	}
	slot := base.Slot{Tier: d.Doc.Tier, Alive: true, Time: d.Day}
	ids := []*uint32{&slot.DocNum, &slot.Patient, &slot.Type, &slot.Source, &slot.Evidence, &slot.Lang}
	for i, v := range []string{d.Doc.ID, d.Doc.Patient, d.Doc.Type, d.Doc.Source, d.Doc.Evidence, d.Doc.Lang} {
		var err error
		if *ids[i], err = w.dictID(v); err != nil {
			return err
		}
	}
	doc := d.Doc
	rec := docRecord{Doc: doc, Chunks: make([]uint64, len(d.Chunks)), TierGiven: d.TierGiven}
	for i := range d.Chunks {
		c := d.Chunks[i]
		c.Ord = w.nextOrd
		c.Doc = doc.ID
		c.Index = i
		w.nextOrd++
		rec.Chunks[i] = c.Ord
		if err := w.chunks.Put(u64key(c.Ord), encodeChunk(&c)); err != nil {
			return err
		}
		slot.Ord, slot.Tier = c.Ord, c.Tier
		vec := d.Vectors[i*dim : (i+1)*dim]
		w.appendSlot(&slot, vec)
		ch.Added = append(ch.Added, Added{Chunk: &c, Doc: &doc, Day: d.Day, Slot: slot})
		ch.Vectors = append(ch.Vectors, vec...)
	}
	v, err := json.Marshal(&rec)
	if err != nil {
		return err
	}
	if err := w.docs.Put([]byte(doc.ID), sealDoc(v)); err != nil {
		return err
	}
	addU64(w.meta, keyDocs, 1)
	addU64(w.meta, keyChunks, len(d.Chunks))
	addU64(w.meta, keyLive, len(d.Chunks))
	addU64(w.meta, keyTierDocs[doc.Tier], 1)
	return nil
}

// dictID returns the dictionary id of v, assigning the next one if new.
func (w *writer) dictID(v string) (uint32, error) {
	if v == "" {
		return 0, nil
	}
	if id, ok := w.dictCache[v]; ok {
		return id, nil
	}
	var id uint32
	if b := w.dict.Get([]byte(v)); b != nil {
		id = decodeU32(b)
	} else {
		w.nextDict++
		id = w.nextDict
		if err := w.dict.Put([]byte(v), u32key(id)); err != nil {
			return 0, err
		}
	}
	w.dictCache[v] = id
	return id, nil
}

// segment returns the writable copy of segment n.
func (w *writer) segment(n uint32) []byte {
	if b, ok := w.segs[n]; ok {
		return b
	}
	b := append([]byte(nil), w.vecs.Get(u32key(n))...)
	w.segs[n] = b
	return b
}

func (w *writer) killSlot(ord uint64) error {
	n, i := uint32(ord/SegmentSlots), int(ord%SegmentSlots)
	b := w.segment(n)
	size := w.slotSize()
	if size == 0 || (i+1)*size > len(b) {
		return corruptf("no vector slot for chunk %d", ord)
	}
	b[i*size+5] = 0 // the Alive byte of the header
	return nil
}

// slotSize is the encoded size of one slot at the recorded dimension.
func (w *writer) slotSize() int {
	return slotHeaderSize + 4*int(getU64(w.meta, keyDim))
}

func (w *writer) appendSlot(s *base.Slot, vec []float32) {
	n := uint32(s.Ord / SegmentSlots)
	b := w.segment(n)
	var hdr [slotHeaderSize]byte
	putSlot(hdr[:], s)
	b = append(b, hdr[:]...)
	b = appendFloats(b, vec)
	w.segs[n] = b
}

func (w *writer) flushSegments() error {
	keys := make([]uint32, 0, len(w.segs))
	for n := range w.segs {
		keys = append(keys, n)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for _, n := range keys {
		if err := w.vecs.Put(u32key(n), w.segs[n]); err != nil {
			return err
		}
	}
	return nil
}
