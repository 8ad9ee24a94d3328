// Command medkb is the command-line face of the medkb store.
//
//	medkb ingest [--skip-bad] FILE...     documents (JSON Lines, TSV) and graph files
//	medkb query [--json] QUERY|-          one RETRIEVE statement
//	medkb repl                            interactive, read-only
//	medkb demo                            the embedded sample and showcase queries
//	medkb stats | show ID... | export | check
//	medkb rebuild | backup DEST           operations
//	medkb bench vector|ingest|retrieval|query|pack|graph|evidence, medkb tune
//
// main is a few lines; run builds the cobra command tree so that tests
// drive the whole CLI in process (cmd_test.go). Each subcommand lives in
// its own file (cmd_<verb>.go, bench_<what>.go) and opens the store itself:
// read-only for anything that only reads, so queries never take the
// writer's lock. check reads the system of record read-only before it
// opens a sound store read-write (medkb.Check). corrupt_test.go runs the
// CLI in child processes on damaged copies of a store, so that a panic or
// a fatal signal fails the test instead of ending it.
package main
