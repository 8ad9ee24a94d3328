// Package medkb is the embedding API of medkb, a retrieval store for
// medical RAG: open a store directory, ingest documents and triples, and
// query it with the RETRIEVE language to get packed, cited context.
//
//	db, err := medkb.Open("kb", nil)
//	...
//	res, err := db.Ingest(ctx, docs)
//	out, err := db.Query(ctx, `RETRIEVE "chest pain" PACK budget 512`)
//
// # Design
//
// The types of this package (Doc, Entity, Triple, Result and what they
// hold) are its own, documented here, and converted at the boundary: a
// Doc, Entity or Triple to the store's record by a type conversion, which
// the compiler refuses once the two differ (Tier is the store's type for
// that reason); a Result field by field from the planner's, which a test
// keeps in step (the JSON of `medkb query --json` is the planner's).
// Options are checked before anything is opened (Options.Validate: a
// negative ChunkTokens is an error, not the default), and the package
// reads no environment variable: the medkb command reads
// $MEDKB_EMBED_URL and the API keys and passes them as
// Options.EmbedServer, and $MEDKB_RERANK_URL as Options.Reranker.
//
// A DB wires the parts explicitly: the bbolt store (system of record), the
// BM25 index and the vector slab derived from it, the knowledge graph built
// from the stored triples, the tokenizer and the embedder. A read-write
// Open brings the BM25 index up to the store's write sequence (replaying
// what a crash or a failed update left out) before it returns, so every
// acknowledged write is searchable.
//
// Ingest is one store transaction per call: every document is validated,
// tiered, chunked, compressed (state B for T1/T2) and embedded first, in
// parallel and before the writer's lock, so a long document does not hold
// up other writers; then the store commits; then the BM25 index and the
// vector slab apply the change. A call that fails before the commit leaves
// the store as it was. Once bbolt has committed, the write is
// acknowledged whatever happens to the index after it. Every document a
// store receives takes this one path (prepare.go: Ingest's, and so
// `medkb ingest`'s, and Rebuild's, which only skips the input checks
// its stored records passed once), and its date is read there once:
// the store's vector slot and the BM25 index take the day from the
// write (store.DocWrite.Day) rather than reading the text again.
//
// Every step is linear in its input. Chunking aims each chunk's end from
// the token counts so far instead of bisecting the rest of the text (a
// megabyte without a space chunks in seconds, not minutes; see
// internal/text), and graph writes go to bbolt in key order
// (store.PutGraph). Validation caps every field of a document
// (CheckDoc: the limits are documented on Doc's fields): a 5 MB meta
// value or title would otherwise be copied into every chunk's index entry,
// and a text of only white space would be stored without a chunk. A call's
// memory grows with its documents, several copies of each vector, so a
// caller with a large input checks it whole with CheckDoc and then
// ingests it in batches: medkb ingest writes 2,048 documents (or 16 MiB of
// text) per call, which makes a file atomic against bad input but not
// against a failure midway (see the command's help).
//
// IngestGraph stores entities and triples in one transaction and drops
// the in-memory graph; the next query that expands builds it again from
// the store, so that a directory of graph files, one write each, builds
// it once rather than once per file.
//
// # The BM25 index
//
// The index is derived and records the write sequence it reflects, so it
// is never needed to read the store and can always be made again from it.
// Stats, Show, Export and Entities read bbolt only: a read-only DB opens
// the index at its first query, and a damaged or lagging index costs
// queries, nothing else. Queries then fail with ErrIndexDamaged (the index
// cannot be opened or read, or reflects writes the store lacks) or
// ErrIndexBehind (it lacks committed writes), naming the index directory,
// the cause and `medkb check`. A reader does not answer from a lagging
// index, whose answers would miss documents stats and export list, nor
// replay into it: it cannot write, and replaying in memory would hold a
// second index.
//
// A read-write Open repairs: it replays what the index lacks from the
// store's log, and rebuilds an index it cannot open, cannot replay into
// (the log no longer reaches back) or that is ahead of the store, beside
// the old one, swapping it in with two renames (bm25.Rebuild); Repairs
// says what it did. When it cannot (a full disk), it records why and opens
// anyway. Check verifies the index's segment checksums too (bm25.Verify),
// which no open reads, and RepairIndex rebuilds an index Check finds
// wrong; `medkb check` does both.
//
// When the BM25 update after a commit fails (a full disk), Ingest still
// succeeds, with the failure in IngestResult.IndexErr (ErrIndexBehind).
// The failed index is closed, since scorch keeps the unpersisted batch in
// memory and reports its sequence; the next write reopens it and replays
// from what it persisted, and so does the next read-write open. Meanwhile
// the replay log is kept from the index's sequence on.
//
// Operations: Rebuild builds a new generation from the store's records and
// switches to it atomically while readers keep serving; Backup makes a hot,
// consistent copy; Check verifies the system of record read-only (every
// page and every record's checksum, see package store) before it opens a
// sound store read-write to compare the derived indexes with it. A damaged
// store is an error wrapping store.ErrCorrupt that names the file and the
// page or record, from every call, never a crash. Rebuild builds only from
// a generation that passes its check, switches only to one with as many
// documents, and removes no generation that could hold documents the live
// one lacks (store.ErrWouldLoseData). A DB is safe for concurrent use: one writer at a time (Ingest calls
// serialise), any number of concurrent queries. A read-only DB notices a
// new generation (after medkb rebuild) at its next query and moves to it;
// queries in flight finish on the old one. A read-write DB rebuilds and
// checks through itself (DB.Rebuild, DB.Verify), with the writer lock it
// holds. A read-only DB holds writers off while it is open (see package
// store, "Locks"); with Options.YieldToWriters it lets its generation go
// while idle when a writer waits, and opens it again at its next call.
//
// # Retrieval backends
//
// A store chooses at creation where its two retrieval arms search
// (Options.Backend, recorded in bbolt): its own indexes (the default), or
// a Weaviate cluster (BackendWeaviate, package index/weaviate) for stores
// that outgrow one machine. The cluster is derived like the BM25 index:
// each write is committed to bbolt first and then applied to the
// generation's collection, and the sequence the collection reflects is
// recorded in bbolt, so a write the cluster missed (unreachable nodes) is
// replayed from the store's log at the next write or read-write open.
// Meanwhile Ingest succeeds with IngestResult.IndexErr, and queries fail
// with ErrBackendBehind naming the collection and the nodes; bbolt is
// never rolled back for the cluster. Each generation has its own
// collection (ordinals are a generation's), and a rebuild points the
// store's alias at the new one and drops the replaced ones. Fusion,
// expansion, relevance and packing stay here; the relevance stage and
// PACK still read the local BM25 index and vector slab, which a
// Weaviate-backed store keeps.
//
// # Serving
//
// One process can own a store for many clients: DB.Serve answers an
// HTTP/JSON API (v1, docs/serve.md) on the store's unix socket
// (SocketPath, bound by ListenUnix, which clears a dead server's file and
// refuses a live one's) or, with a token, on TCP. It is a thin layer: each
// route calls the DB method of the same name, concurrently as the DB
// allows, and maps its error to a code (a sentinel, a positioned parse
// error, a bad document). Client, from Connect or Dial, has DB's method
// set, so the medkb command holds either behind one interface, and its
// *RemoteError maps the code back for errors.Is.
//
// # Model hooks
//
// Models medkb does not ship run as servers, reached through hooks with a
// timeout (DefaultHookTimeout) and errors that name the endpoint and
// what went wrong (unreachable, no answer in time, an error status, a
// malformed reply). Options.Reranker serves the RERANK clause;
// HTTPReranker calls the rerank API TEI, Jina and Cohere share, and the
// medkb command sets one from $MEDKB_RERANK_URL. A DB without one fails
// a statement with RERANK (planner.ErrNoReranker) but explains it.
// StanceJudge asks an OpenAI-compatible chat server to label a Result's
// items supports, contradicts or irrelevant for a claim, the map
// Result.Weigh takes; its prompt is in docs/stance.md.
//
// # Caveats
//
//   - A read-only DB keeps the verdict on its BM25 index (damaged, behind)
//     until it moves to another generation: repairing the index needs a
//     read-write open, which waits for readers to close anyway.
//   - A read-write DB retries a failed BM25 update at its next write, not
//     at the next query: queries in between fail with ErrIndexBehind.
//   - A query that overlaps an index update failing on a full disk may
//     fail with bm25.ErrCorrupt ("bleve panicked"): when bleve 2.6.1
//     cannot commit root.bolt it closes the segments it has already
//     swapped into the snapshot searches read. The index on disk is
//     intact; the writer closes it at once, and later queries report
//     ErrIndexBehind.
//   - Open does not read segments whole, so a segment garbled where opening
//     does not look serves queries (possibly wrong hits, or ErrCorrupt)
//     until Check finds it.
//   - ListenUnix sets the socket's mode right after binding it; until
//     then the store directory's own mode is what keeps others out.
//   - Whether bbolt itself reports a full disk before its commit is
//     durable (ext4's delayed allocation can surface ENOSPC at fsync) is
//     the store package's concern; this package trusts its error.
package medkb
