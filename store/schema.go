package store

import "encoding/binary"

// SchemaVersion is the layout this package writes. Open refuses stores
// with a larger version.
const SchemaVersion = 1

// SegmentSlots is the number of vector slots per stored segment.
const SegmentSlots = 256

// maxDim bounds a plausible vector dimension, so that a damaged counter
// is reported rather than allocated.
const maxDim = 1 << 16

// slotHeaderSize is the encoded size of a base.Slot (the ordinal is
// implied by the slot's position).
const slotHeaderSize = 32

var (
	bucketMeta   = []byte("meta")
	bucketDocs   = []byte("docs")
	bucketChunks = []byte("chunks")
	bucketVecs   = []byte("vecs")
	bucketDict   = []byte("dict")
	bucketLog    = []byte("log")
	bucketEnts   = []byte("ents")
	bucketTrip   = []byte("trip")
	bucketRTrip  = []byte("rtrip")

	allBuckets = [][]byte{bucketMeta, bucketDocs, bucketChunks, bucketVecs,
		bucketDict, bucketLog, bucketEnts, bucketTrip, bucketRTrip}
)

// Keys of the meta bucket.
var (
	keySchema     = []byte("schema")
	keyFrom       = []byte("from") // the generation this one was rebuilt from
	keyEmbedder   = []byte("embedder")
	keyDim        = []byte("dim")
	keySeq        = []byte("seq")
	keyNextOrd    = []byte("next_ord")
	keyNextDict   = []byte("next_dict")
	keyDocs       = []byte("count.docs")
	keyChunks     = []byte("count.chunks")
	keyLive       = []byte("count.vectors")
	keyTriples    = []byte("count.triples")
	keyEntities   = []byte("count.entities")
	keyGraphSeq   = []byte("graph.seq")
	keyQuantize   = []byte("vectors.quantize") // SetQuantize
	keyBackend    = []byte("backend")          // SetBackend
	keyBackendSeq = []byte("backend.seq")      // SetBackendSeq
	keyTierDocs   = [5][]byte{nil, []byte("count.T1"), []byte("count.T2"), []byte("count.T3"), []byte("count.T4")}
)

func u64key(v uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	return b[:]
}

func u32key(v uint32) []byte {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], v)
	return b[:]
}
