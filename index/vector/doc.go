// Package vector is medkb's dense-vector arm: an exact, in-memory index over
// one contiguous slab of L2-normalised float32 vectors, scanned with SIMD,
// or, to hold a quarter of the memory, over int8 codes of them whose best
// candidates are rescored exactly.
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
//   - rows are scored a block at a time, blocks small enough to stay in
//     L2: for a dimension that is a multiple of 16, by medkb's own AVX2+FMA
//     kernel (kernel_f32_amd64.s: four rows share each load of the query,
//     two accumulators a row, the group of rows two ahead prefetched),
//     otherwise by one matrix-vector product (vek32.MatMul_Into, AVX2+FMA
//     where the CPU has it; blocks stay below vek's threshold for
//     spawning goroutines of its own);
//   - a large slab is scanned by one worker per runtime.GOMAXPROCS(0),
//     each keeping its own bounded min-heap of k hits; the workers claim
//     contiguous chunks of the slab in turn (eight a worker), so a worker
//     that starts late, its core taken by the BM25 arm beside the scan or
//     by another process, does not leave half the slab for the end;
//     small slabs are scanned on the calling goroutine because starting
//     workers would cost more than the scan;
//   - a block's scores are tested against the heap's floor with vek, 8 at
//     a time (offer), and only those that reach it one by one; a NaN
//     score never enters the heap;
//   - a row's Slot is read only when its score would enter the heap, so
//     attributes cost nothing for rows that lose anyway; Alive and then the
//     caller's Match are tested there;
//   - per-worker score buffers and heaps come from a sync.Pool owned by the
//     Index, so a search allocates only its result and bookkeeping.
//
// Results are ordered by score, best first, ties broken by the smaller
// ordinal, so a search is deterministic whatever the number of workers.
// Every kernel gives a row the same float32 score, bit for bit, alone or
// at any place in a block (TestF32KernelRowAlone; the AVX2 kernel's
// one-row tail adds its lanes in the four-row path's order), so scores
// do not depend on where blocks and chunks fall either.
//
// The SIMD kernels have a pure-Go twin (scoreGo); tests check that all
// give the same top-k on random data across sizes, dimensions and filters.
//
// # int8 scan with exact rescoring
//
// SearchWith(..., ScanInt8) scores every slot from int8 codes, keeps the
// best RescoreDepth(k) = max(4k, k+32) candidates per worker, merges them,
// and rescores exactly, from float32 vectors, those that can still be
// among the best k (Pruning below), so the scores returned are exact and
// only the choice of candidates is approximate.
//
//   - Scale: per vector, symmetric. Vector i is stored as codes c (-127..127)
//     and one scale s_i = max|v|/127, so v ~= s_i*c. Per-dimension scales
//     buy nothing here: vectors are unit-normalised and the built-in
//     embedder spreads features over all dimensions by hashing, so every
//     dimension has the same range; what varies is each vector's peak (a
//     short text's vector is sparse, with large components), which a
//     per-vector scale follows. It also keeps the kernel pure integer: a
//     per-dimension scale would have to be folded into the query in
//     float, or rounded into it. Symmetric codes need no zero point, so
//     the dot product needs no correction terms.
//   - Query: int16 codes at the finest grid the kernel cannot overflow
//     (queryMax: codeMax*queryMax*stride < 2^31), halving the rounding
//     error for free since the kernel widens rows to 16 bits anyway. An
//     approximate score is s_i * s_q * (integer dot).
//   - Tiles: the codes are kept in tiles of 128 rows, and within a tile
//     dimension by dimension: the 128 rows' codes of dimension d form
//     one column of 128 bytes at d*128, row r's at d*128+r. A query's
//     zero codes add nothing to any dot product, so a scan reads only the
//     columns of the dimensions where the query has a non-zero code
//     (activeColumns). The built-in embedder's queries are sparse
//     (feature hashing of a few words: on the pipeline benchmark's
//     queries some 31 of 384 dimensions), so a scan reads about a twelfth
//     of the codes; a dense query (a neural embedder's) reads them all,
//     as row-major codes would. A column is two cache lines, 128-byte
//     aligned (the codes come from mmap, or below 4 MiB from a Go heap
//     object of at least 2 KiB, and both start 128-byte aligned; a tile,
//     128 times a stride that is a multiple of 16, keeps the alignment;
//     it matters for speed only), so the pair of
//     lines the hardware fetches together belongs to one dimension. The
//     integer sums are the same in any layout, so the layout changes no
//     candidate. With row-major codes every query read every byte: 38.4
//     MB at 100k x 384, 1.6-1.8 ms on the reference machine. With
//     columns of a pair of dimensions in tiles of 64 rows a sparse query
//     read its active dimensions' partners too (29 pairs, 5.8 MB, 1.05-1.3
//     ms on one core); one dimension a column reads half that (3.1 MB,
//     0.55-0.75 ms on one core, BenchmarkSearchInt8100kx384, which rotates
//     64 queries so that none finds its columns still in cache). That scan
//     is bound by the latency of its scattered column reads, not by
//     bandwidth. Tiles of 1024 rows (2 KB columns, sums kept in memory)
//     were measured and made dense scans 1.4-1.8x slower.
//   - Kernel: dotsInt8AVX2 (kernel_int8_amd64.s) keeps half a tile's
//     sums, 64, in eight registers while it walks the active columns two
//     at a time: the two columns' codes are interleaved a byte from each,
//     widened to 16 bits with VPMOVSXBW and multiplied by the two query
//     codes with VPMADDWD, which adds a row's two products into its int32
//     lane. It takes four such entries over one half, then over the
//     other, so that a column's two lines are read close together: all
//     the entries over one half and then the other made a dense scan on
//     one core 3.5-3.9 ms instead of 2.5-3.0. The same columns two tiles
//     ahead are prefetched, since a sparse query's columns are scattered
//     over a tile (without it the sparse scan took 1.4-1.6 ms on one core
//     instead of 0.7-0.8; one to four tiles ahead measured alike). Its
//     pure-Go twin, dotsInt8Go, gives bit-identical integer sums, which a
//     randomized test checks (extremes, and dense, sparse and empty
//     queries, with odd and even counts of active dimensions, included).
//     There is no AVX-512 (VNNI) path: the reference machine (Zen 3) has
//     no AVX-512 to test it on. The interleaving costs shuffles: in cache
//     the kernel runs at some 20 GB/s of codes a core against 33 for the
//     pair columns, still above what a core reads from memory.
//   - Rescore depth: with no rescoring beyond k (depth 10) recall@10
//     against the exact scan was 0.986 on 100k random unit vectors and
//     0.990 on 95k NFCorpus windows embedded by the built-in embedder;
//     depth 15 already gave 1.000 and 0.9997, depth 20 1.000 on both. The
//     default, max(4k, k+32), keeps a wide margin for embedders whose top
//     scores crowd closer, for the cost of reading 42 vectors at k=10.
//   - Pruning: before rescoring, a candidate is dropped when even the
//     largest error its codes allow (errorBound: half its grid step
//     times the query's L1 norm, plus the query's own rounding) cannot
//     lift it above the k-th best lower bound; the k best of the rest
//     are the k best of all the candidates, ties included
//     (TestPruneKeepsTopK). rescoreBest then reads the k best by
//     approximate score first, and of the rest only those whose upper
//     bound reaches the worst exact score of those k, which k candidates
//     are sure to reach. On the 100k NFCorpus store, k=50 rescoring reads
//     64 of its 200 candidates' vectors on average, at about 2.5
//     microseconds each from the store file (a median 80 with the
//     pruning alone).
//   - Memory: codes take CodeBytes(dim) bytes a vector (dim rounded up to
//     16) and a float32 scale, plus the zero rows that pad the last tile,
//     so 1M x 384 is 388 MB instead of 1.5 GB.
//     An index made by New quantises its slab at the first int8 search and
//     keeps the codes in step with appends (the float32 slab stays: scan
//     may then be chosen per query). An index made by NewInt8 keeps only
//     codes and reads the float32 vectors back from a Source (the store's
//     file) to rescore, for Vector, and for ScanF32.
//   - ScanF32 on an index made by NewInt8 is still an exact scan of every
//     slot, from the vectors on disk (searchStream): it asks the Source
//     for the alive slots that pass Match (tested in that order, as the
//     in-memory scan does, but for every alive slot, since only they are
//     read), 4096 ordinals a call in ascending order, scores each row with
//     the f32 scan's kernel and keeps the same bounded top-k, so its hits,
//     scores included, are bit for bit those of an index made by New over
//     the same vectors (TestScanF32OnInt8). It costs no memory beyond a
//     block's ordinals and scores, but a read of every vector per query,
//     on the calling goroutine, holding the read lock (writers wait for
//     it): from a slice about as long as the in-memory scan on one core
//     (BenchmarkScanF32Int8100kx384, 18-31 ms under load against 15-23
//     ms), from the store's file, one pread a vector, some 2 us a vector
//     with the file in the page cache (0.2 s a query at 100k vectors, 2 s
//     at 1M) and more from disk. It is the exact mode for checking int8
//     results or for a rare query, not for serving; a Source error fails
//     the search.
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
//   - The whole slab lives in memory: n*dim*4 bytes (100k x 384 is 147 MiB),
//     or its codes for an int8 index.
//   - The scan cannot beat memory bandwidth, so its time is reported
//     against the time to merely read the slab (BenchmarkReadFloor100kx384,
//     and `medkb bench vector`, which measures the bandwidth in the same
//     run); docs/benchmarks.md has the numbers, with the machine and its
//     load. The pure-Go kernels, compute-bound, are several times slower.
package vector
