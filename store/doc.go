// Package store is medkb's system of record: one bbolt file per generation
// holding everything needed to rebuild every derived index.
//
// # Layout on disk
//
//	kb/
//	  CURRENT        name of the live generation, replaced by atomic rename
//	  LOCK           held by writers (ingest, rebuild) across processes
//	  gen-000001/
//	    medkb.db     this package's bbolt file
//	    bm25/        the derived bleve index (package index/bm25)
//	    graph.bin    the derived graph's compact form (package medkb)
//
// # Buckets
//
//	meta     schema version, embedder name and dimension, write sequence,
//	         next chunk ordinal, counters (docs, chunks, per-tier docs),
//	         graph sequence (bumped by every PutGraph)
//	docs     document id -> JSON record (base.Doc plus its chunk ordinals)
//	chunks   ordinal (8 bytes, big-endian) -> binary chunk record
//	vecs     segment number (4 bytes) -> up to SegmentSlots slots, each a
//	         fixed-size base.Slot header followed by dim float32s
//	dict     string -> uint32 id, for the fixed-size slot attributes
//	log      sequence (8 bytes) -> the ordinals a write deleted and added,
//	         replayed into derived indexes that lag behind
//	ents     type 0x00 name -> aliases;  trip/rtrip: triples both ways
//
// # Invariants
//
//   - Chunk ordinals are dense, start at 0 and are never reused within a
//     generation, so the vector slab is addressed by ordinal. Replacing or
//     deleting a document kills its old slots; a rebuild compacts them.
//   - Every write is one bbolt transaction that bumps the sequence and logs
//     its changes, so a derived index that records the sequence it reflects
//     can always catch up by replaying the log (Replay), and a crash at any
//     point leaves the file as of the last committed write.
//   - Vectors are stored in segments, so opening a store reads them in a few
//     hundred large reads rather than one per chunk.
//
// # Caveats
//
// A read-write Store holds bbolt's exclusive file lock for its whole life;
// read-only opens from other processes wait (up to Options.LockTimeout)
// until it closes. It also holds the store-wide writer lock (LOCK, see
// LockWriter), taken before CURRENT is read, so that a rebuild never
// replaces the generation a writer is writing. The writer of one Store must be single: Write serialises
// through bbolt's own writer lock.
package store
