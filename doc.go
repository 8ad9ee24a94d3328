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
// parallel; then the store commits; then the BM25 index and the vector slab
// apply the change. A call that fails before the commit leaves the store as
// it was.
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
// queries in flight finish on the old one.
package medkb
