// Package tempstore builds a throwaway medkb store from documents, for
// the benchmarks that measure a query over a corpus they ingest first
// (bench retrieval, bench evidence): a store in a new temporary
// directory, removed when it is closed.
package tempstore
