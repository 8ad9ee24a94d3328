// Package graphbench is the Hetionet harness behind `medkb bench graph`:
// how long the public Hetionet takes to load and build, how fast a
// two-step metapath expands from one anchor, and whether metapaths find
// Compound-treats-Disease edges that were held out of the graph. It uses
// only graph's exported API and lives outside graph so the product
// package carries no benchmark code; the Go benchmarks that need graph's
// internals (BenchmarkHetionetLinkerBuild and the rest) stay in graph.
//
// # Protocol
//
// Run reads the node and edge TSVs (graph.LoadHetionet) and builds the
// graph, timing both; builds every type's linker; then expands CbGaD
// (Compound -binds-> Gene <-associates- Disease) with a LIMIT from
// random compounds that bind some gene, after one untimed pass over the
// same anchors, and reports p50, p99 and the maximum. For recovery it
// holds a random share of the treats edges out, rebuilds the graph
// without them, and for each held-out (compound, disease) asks whether
// CbGaD or CrCtD (Compound -resembles-> Compound -treats-> Disease) paths
// from the compound end at the disease, within the LIMIT and without one.
//
// # Caveats
//
//   - Holding out every treats edge would leave CrCtD nothing to walk, so
//     only a share (Options.HoldOut) is held out.
//   - A hit rate means little when every disease is reached, so each row
//     also gives the mean number of distinct diseases the paths reach.
//   - The unlimited expansion is bounded by a large work budget; a run
//     that hits it is an error rather than a silently smaller count.
package graphbench
