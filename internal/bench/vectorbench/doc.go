// Package vectorbench times exact top-10 search of index/vector: `medkb
// bench vector`. It lives outside the index so the product package
// carries no benchmark harness; the kernel and worker comparisons, which
// need the index's internals, stay as Go benchmarks in index/vector
// (BenchmarkSearch100kx384 and the rest).
//
// The slab is random unit vectors from a fixed seed, so two runs scan the
// same slab, or, given a documents file (NFCorpus's "ID<TAB>text"),
// windows of its words embedded by the built-in hash embedder, queried by
// a queries file of the same format. The reported time is the median of
// the timed queries after one untimed warm-up.
//
// A scan time means little without the machine's memory bandwidth, since
// an exact scan must read every stored byte once. Run measures it in the
// same process, among the queries: a streaming read (vek32.Sum, on one
// goroutine per runtime.GOMAXPROCS(0), as the scan splits) of a 256 MiB
// buffer, far beyond the last-level cache, seven times spread evenly
// among the timed queries (so that a shared machine's load weighs on
// both alike), and the median taken.
// The floor is the bytes the scan reads over that bandwidth (n x dim x 4
// for f32, n x codeStride for int8), and the ratio is scan time over
// floor. For int8 Run also reports recall@10 against the exact f32 scan of
// the same queries.
package vectorbench
