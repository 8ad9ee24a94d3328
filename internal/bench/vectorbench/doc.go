// Package vectorbench times exact top-10 search of index/vector over a
// slab of random unit vectors: `medkb bench vector`. It lives outside
// the index so the product package carries no benchmark harness; the
// kernel and worker comparisons, which need the index's internals, stay
// as Go benchmarks in index/vector (BenchmarkSearch100kx384 and the rest).
//
// The vectors and queries come from a fixed seed, so two runs scan the
// same slab; the reported time is the median of the timed queries after
// one untimed warm-up, and GB/s is the slab's size over that median.
package vectorbench
