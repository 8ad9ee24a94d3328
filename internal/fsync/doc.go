// Package fsync flushes files and directories to stable storage: the one
// helper behind every durable rename in medkb (CURRENT, a new generation,
// a new BM25 index, a backup), and WriteFile, which replaces a file
// atomically and durably (the graph's compact form).
package fsync
