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
// A DB wires the parts explicitly: the bbolt store (system of record), the
// BM25 index and the vector slab derived from it, the knowledge graph built
// from the stored triples, the tokenizer and the embedder. Open brings the
// derived indexes up to the store's write sequence (replaying what a crash
// left behind) before it returns, so every acknowledged write is searchable.
//
// Ingest is one store transaction per call: every document is validated,
// tiered, chunked, compressed (state B for T1/T2) and embedded first, in
// parallel and before the writer's lock, so a long document does not hold
// up other writers; then the store commits; then the BM25 index and the
// vector slab apply the change. A call that fails before the commit leaves
// the store as it was.
//
// Every step is linear in its input. Chunking aims each chunk's end from
// the token counts so far instead of bisecting the rest of the text (a
// megabyte without a space chunks in seconds, not minutes; see
// internal/text), and graph writes go to bbolt in key order
// (store.PutGraph). Validation caps every field of a document
// (base.Doc.Validate; CheckDoc adds the store's dimension): a 5 MB meta
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
// Operations: Rebuild builds a new generation from the store's records and
// switches to it atomically while readers keep serving; Backup makes a hot,
// consistent copy. A DB is safe for concurrent use: one writer at a time (Ingest calls
// serialise), any number of concurrent queries. A read-only DB notices a
// new generation (after medkb rebuild) at its next query and moves to it;
// queries in flight finish on the old one.
package medkb
