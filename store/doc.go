// Package store is medkb's system of record: one bbolt file per generation
// holding everything needed to rebuild every derived index.
//
// # Layout on disk
//
//	kb/
//	  CURRENT        name of the live generation, replaced by atomic rename
//	  LOCK           held by writers (ingest, rebuild) across processes
//	  INTENT         a writer's announcement that it waits for readers
//	  readers/r-*    one record per open reader: pid, program, generation
//	  gen-000001/
//	    medkb.db     this package's bbolt file
//	    bm25/        the derived bleve index (package index/bm25)
//	    graph.bin    the derived graph's compact form (package medkb)
//
// # Buckets
//
//	meta     schema version, embedder name and dimension, write sequence,
//	         next chunk ordinal, counters (docs, chunks, per-tier docs),
//	         graph sequence (bumped by every PutGraph), "from" (the
//	         generation a rebuild made this one from), "vectors.quantize"
//	         ("int8" when an int8 index is to hold the slab; SetQuantize),
//	         "backend" and "backend.seq" (a retrieval backend other than
//	         the embedded indexes and the sequence it reflects; SetBackend)
//	docs     document id -> JSON record (base.Doc plus its chunk ordinals),
//	         ending in its checksum member "crc32c"
//	chunks   ordinal (8 bytes, big-endian) -> binary chunk record, ending
//	         in its CRC-32C
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
//   - Only the creation of a store (its first generation) and of a
//     rebuild's generation makes a medkb.db. Opening an existing generation,
//     read-only or read-write, never creates or initialises one: a
//     generation without its file, or with an empty or foreign one, is
//     ErrCorrupt, not a new empty store.
//
// # Integrity
//
// Everything that finds the store damaged wraps ErrCorrupt and names the
// file and, where known, the page or the record; no damage may crash a
// process. Four layers see to it.
//
//   - Before bbolt maps a file, openBoltFile reads its meta pages with
//     ordinary reads and checks them as bbolt does (magic, version, FNV
//     checksum), that the file is a whole number of pages, that it reaches
//     the highest page the meta names, and that the root and freelist lie
//     below it. bbolt maps 64 MiB up front, so a truncated file would
//     otherwise fault (SIGBUS) on the first page past its end.
//   - Every transaction runs under guard: a bbolt panic (it asserts on
//     pages that name another page) and a memory fault in the mapping
//     (debug.SetPanicOnFault: a page number past the end of the file)
//     become ErrCorrupt naming the page.
//   - Chunk and document records carry a CRC-32C, verified on every read
//     and by Check, so that a flipped byte in a document's text is an error
//     rather than a wrong answer. Older medkb ignores the checksums (a
//     trailing field, an unknown flag bit, an unknown JSON member), and
//     reads and writes such a store; the records it writes, and those
//     written before checksums existed, read unchecked until a rebuild
//     rewrites them. The encoding keeps damage from passing for such a
//     record (see codec.go).
//   - Check (and Verify, which opens read-only and still walks the pages of
//     a file too damaged to open) walks the file itself (checkPages,
//     ordinary reads again):
//     pages that name another page, bad page types, elements or overflow
//     pages running past their page or the file, keys out of order, pages
//     reached twice (a cycle), free pages in use, pages neither. Only when
//     every page is sound does it run bbolt's own Tx.Check, whose goroutine
//     guard cannot cover; it then verifies every record in each bucket whose
//     pages are sound, and the invariants only when none is damaged. Live
//     vectors must be unit or zero: a flipped byte in a float shows there.
//
// Generations are removed only by WriterLock.Prune, which removes nothing
// (ErrWouldLoseData) when the live generation does not open or its
// document counter disagrees with its records, when another generation
// holds more documents and is not the one the live one was rebuilt from
// (Meta.From) or older, or when another generation's valid bbolt file
// does not open.
//
// # Vectors for an int8 index
//
// An int8 index (index/vector.NewInt8) keeps codes, not the float32
// vectors, so it reads the store twice differently from LoadVectors:
// EachVectors streams the slab a segment at a time, and VectorsAt reads
// the few vectors a query rescores. Neither may leave the file's pages in
// the process's resident set, or a 1M x 384 store would cost its 1.5 GB
// again: EachVectors releases the pages it read (MADV_DONTNEED on bbolt's
// read-only shared mapping, in 2 MiB blocks clipped to the mapping, and
// the whole mapping every 64 segments), and VectorsAt reads with pread at
// each segment's file offset, noted by EachVectors and kept for one bbolt
// transaction id (a write may move segments; readers exclude writers).
//
// # Locks
//
// A read-write Store holds bbolt's exclusive flock on its medkb.db for its
// whole life, and a read-only one a shared flock: they exclude each
// other, and an open waits for the other kind up to Options.LockTimeout.
// A read-write Store also holds the store-wide writer lock (LOCK, see
// LockWriter), taken before CURRENT is read, so that a rebuild never
// replaces the generation a writer is writing.
//
// Readers' shared flocks overlap: with readers opening all the time, the
// file is never free for a writer. INTENT prevents it (openBolt). A
// writer takes it exclusively before it waits for bbolt's exclusive flock
// and lets it go once bbolt is open; a reader takes it shared only for
// one try of bbolt's shared flock and tries again, until its deadline, as
// long as it fails. So a writer that announced itself waits only for the
// readers that had the file open already, and new readers wait (not
// fail) for it: a short write makes queries slower. The order is always
// LOCK, then INTENT, then bbolt; a reader never holds INTENT while it
// waits, so no cycle can form (a writer that waits for bbolt holds INTENT
// and LOCK; a reader waiting at INTENT holds neither).
//
// A writer that waits in vain names whom it waited for: each reader
// records itself (markReader) in a file under readers/ that it holds an
// flock on while it has the generation open; a writer reports the records
// of its generation whose flock is held and removes the others, left by
// readers that were killed. A reader that waits in vain names the writer
// recorded in LOCK. The records are best effort: a reader that cannot
// write in the store directory goes unnamed.
//
// # Caveats
//
// A read-only Store that stays open keeps its shared flock, so writers
// wait for it in vain; the error names it. A reader that is idle can look
// for a waiting writer (WriterWaiting) and close; medkb's read-only DB
// does with Options.YieldToWriters. The writer of one
// Store must be single: Write serialises through bbolt's own writer lock.
//
// The vector slots carry no checksum: Check finds a damaged vector only
// when its length is no longer 1 (a flipped low mantissa bit passes), and
// queries read the slab as it is; a rebuild re-embeds every chunk. Graph
// records (ents, trip) and the replay log have no checksums either: Check
// finds only what does not decode.
//
// Outside Check nothing walks the tree before reading it. A damaged
// branch page that points back to an ancestor would send bbolt's cursor
// round until memory runs out; Check's walk reports such a cycle, the
// other commands would not return. The fault-injection runs never made
// one, but they cannot rule it out.
//
// A write transaction that panics on a damaged page may leave bbolt's
// locks held; such a Store skips bbolt's Close, leaving the file to the
// end of the process. An invalid meta page is bbolt's way of surviving a
// torn write: bbolt reads the other, one transaction older, and the next
// write overwrites the damaged one for good. Check reports it and a
// rebuild refuses to copy such a generation, but an ingest writes on.
package store
