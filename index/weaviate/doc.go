// Package weaviate is medkb's retrieval backend on a Weaviate cluster:
// the two retrieval arms (BM25 and vector search, each with the query's
// filter pushed down and a limit k) served by a collection that mirrors
// one store generation, for stores that outgrow one machine. Fusion,
// expansion, packing and EXPLAIN stay medkb's (package planner); only
// the two calls leave the process.
//
// # Derived, like the BM25 index
//
// The bbolt store stays the system of record. A collection is derived
// from it: medkb writes to bbolt first, then applies the write here
// (Apply: deletes, then upserts, in batches of 500) and records in the
// store the sequence the collection reflects; a write that did not reach
// the cluster is replayed from the store's log (store.Replay) at the next
// write or read-write open. Object ids are version 5 UUIDs of the
// collection name and the chunk ordinal (ObjectID), so applying a write
// twice replaces objects rather than adding them, and a replay after a
// crash or a failed batch is harmless. A full replay (a collection that
// reflects none of its generation's writes) empties the collection first
// (Clear), so that what an interrupted rebuild left under the same
// generation name cannot answer queries. medkb makes its collections
// itself (Create) before writing; cluster.sh turns Weaviate's
// auto-schema off so that a write to a missing collection fails rather
// than makes one with the wrong schema.
//
// # One collection a generation, one alias a store
//
// Ordinals are a generation's: a rebuild renumbers every chunk. So each
// generation has its own collection (named after the store and the
// generation), and a query always reads its own generation's, never a
// newer one whose ordinals mean other chunks. A rebuild fills a new
// collection, and once the new generation is live, Publish points the
// store's alias at it (Weaviate has aliases since 1.32; the pinned
// v1.39.3 serves them) so that anything outside medkb reading the alias
// follows; the replaced generation's collection is dropped with its
// directory.
//
// # Schema
//
// A chunk is one object: ord (int), terms (text, whitespace-tokenized,
// searchable only), time (int day number, range-filterable), the keyword
// fields tier, type, patient, source, evidence, lang and doc (text,
// tokenized as whole fields, filterable only) and meta (text[], one
// "LEN:KEY=VALUE" entry a key). Absent values are not stored, so only !=
// matches them. The vector is medkb's own (vectorizer none), compared by
// dot product, which is the cosine for medkb's unit vectors; the score
// returned is the dot product, as the embedded scan's. The vector index
// is flat by default (exact, like the embedded scan) or HNSW
// (approximate). One shard, replicated Options.Replicas times.
//
// # Text
//
// medkb analyses text itself (bm25.Analyzer: Porter stems, English stop
// words, CJK bigrams) and sends the tokens, space-separated, to the
// whitespace-tokenized terms property, with Weaviate's stop words off; a
// query sends its distinct terms the same way. Weaviate's own analysis
// has no stemming, and its Chinese tokenizer (gse) reads its dictionary
// from the Go module cache at run time, so neither is used. The terms,
// and so the matches, are the embedded index's; the scores are
// Weaviate's BM25 (k1 1.2, b 0.75, textbook idf and length), not bleve's
// variant (see index/bm25, "Scoring"), so rankings differ somewhat:
// docs/weaviate.md measures by how much.
//
// # Filters
//
// base.Filter translates one to one (where): = and IN are ContainsAny on
// the values, ordering operators compare day numbers, != is Not around
// the = filter, so that a chunk without the field passes it as in the
// embedded indexes (Weaviate's NotEqual would drop it). meta.KEY
// conditions are evaluated in the cluster in both arms, so the planner
// needs no post-filter.
//
// # Availability
//
// Options.Nodes lists every node. Each call goes to the next node in
// rotation and, when that node fails, to the others in turn: with
// replication, a dead node costs a query one failed try, not an error.
// Reads ask one replica (consistency ONE), writes a quorum. When every
// node fails the error wraps ErrUnavailable and names each node's URL
// with what it said.
//
// # Caveats
//
//   - Weaviate's BM25 keeps statistics per shard: with one shard they are
//     the collection's; a collection split over shards would score each
//     shard against its own.
//   - Weaviate does not order equal scores; search orders what it
//     returns by score, then ordinal, but which of several chunks tied at
//     the k-th place come back is Weaviate's choice.
//   - Keyword values are indexed as whole fields, which Weaviate trims of
//     surrounding white space: "x " and "x" compare equal there, not in
//     the embedded indexes.
//   - Each Apply batch is one request; a failure in the middle leaves the
//     earlier batches applied and the sequence unrecorded, so the next
//     replay applies them again.
//   - Hits carry no per-term match flags, so the planner's relevance stage
//     reads them from the store's embedded BM25 index, which a store on
//     this backend still keeps (as it keeps the vector slab for PACK):
//     taking those off the machine too is future work.
//   - The client library (weaviate-go-client v5.5.0) opens its gRPC
//     connection to an https node without checking the node's
//     certificate; searches and batches, which carry patient ids and
//     chunk terms, go over it. Run the cluster on a network you trust.
//   - The process keeps one client per node (dial): the library gives no
//     way to close a client's gRPC connection.
package weaviate
