// Package base is medkb's shared vocabulary: the evidence tier, the document
// and chunk records, and the per-slot attributes the vector scan filters on.
//
// It exists so that store, index, graph and planner can speak about the same
// records without importing one another (the pattern of pebble's
// internal/base). It holds types and their small methods only; no I/O.
//
// Invariants:
//   - A document given to an ingest passes Validate: every field within
//     its limit (MaxIDBytes ... MaxVectorDim), identifiers without control
//     characters, a text that is not only white space. A store may hold
//     documents an earlier medkb admitted under looser rules; a rebuild
//     carries them over as they are.
//   - A Tier is one of T1..T4 once a document is ingested; TierNone only
//     appears on input before classification.
//   - Chunk.Ord is unique for the life of a generation and never reused: it
//     is the chunk's slot in the vector slab and its id in the BM25 index.
//   - Dates are kept as the text the user gave (validated at ingest) and as
//     Day, days since 1970-01-01 UTC, for filtering and time decay.
//   - A WHERE condition (Cond) is bound once, by BindCond: its tier and
//     time values are read into Tiers and Days there, and the indexes
//     compare those. What a condition means (a record without the field
//     passes != and fails everything else) is stated once, on Cond, and
//     written once, in its Holds methods: the vector scan calls them and
//     the BM25 index is tested against them.
package base
