// Package vector is medkb's dense-vector arm: an exact, in-memory index over
// one contiguous slab of L2-normalised float32 vectors, scanned with SIMD.
//
// # Layout
//
// The store gives every chunk a dense ordinal, starting at 0 and never
// reused within a generation. Slot i of the slab holds ordinal i: its
// vector is vecs[i*dim:(i+1)*dim] and its filter attributes are slots[i]
// (a base.Slot). Deleting a chunk only clears Slot.Alive; the slot stays in
// place, and is still scored, until a rebuild writes a compact generation
// and the index is loaded afresh. Because the layout is positional, an
// ordinal is found in O(1) and nothing maps ids to rows.
//
// # Search
//
// Vectors are normalised once at ingest, so cosine similarity is a dot
// product. Search is exact brute force, which at medkb's scale (up to a few
// hundred thousand chunks) is fast enough and has no recall loss, no
// training and no tuning. The scan is bound by memory bandwidth, so it is
// organised around streaming the slab once:
//
//   - rows are scored a block at a time with one matrix-vector product
//     (vek32.MatMul_Into, AVX2+FMA where the CPU has it), which avoids a
//     call per row (a vek32.Dot per row measured the same, within noise);
//     blocks are small enough to stay in L2 and below vek's own threshold
//     for spawning goroutines;
//   - a large slab is split into contiguous ranges, one per
//     runtime.GOMAXPROCS(0), each keeping its own bounded min-heap of k
//     hits; small slabs are scanned on the calling goroutine because
//     starting workers would cost more than the scan;
//   - a row's Slot is read only when its score would enter the heap, so
//     attributes cost nothing for rows that lose anyway; Alive and then the
//     caller's Match are tested there;
//   - per-worker score buffers and heaps come from a sync.Pool owned by the
//     Index, so a search allocates only its result and bookkeeping.
//
// Results are ordered by score, best first, ties broken by the smaller
// ordinal, so a search is deterministic whatever the number of workers.
//
// The SIMD kernel has a pure-Go twin (scoreGo); tests check that both give
// the same top-k on random data across sizes, dimensions and filters.
//
// # Concurrency
//
// An Index is safe for concurrent use. Searches share a read lock for the
// length of the scan; Append, Kill and Load take the write lock. Vectors are
// never written in place once appended, so the read-only views returned by
// Vector stay valid (and unchanged) after later writes.
//
// # Caveats
//
//   - Vectors and queries must be finite and L2-normalised (see Normalize);
//     the index does not check, and a NaN query gives meaningless hits.
//   - Dead slots cost scan time like live ones. The store decides when to
//     compact; Live and Len tell it how much is dead.
//   - The whole slab lives in memory: n*dim*4 bytes (100k x 384 is 147 MiB).
//   - The scan cannot beat memory bandwidth. On the 2-core reference
//     machine a 100k x 384 search took about 2.9 ms with two workers and
//     3.7 ms with one (best of many runs on a busy machine), the same as
//     merely reading the slab (BenchmarkReadFloor100kx384); the pure-Go
//     kernel, compute-bound, took about 12 ms on one core.
package vector
