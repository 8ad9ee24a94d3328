// Command medkb is the command-line face of the medkb store.
//
//	medkb ingest [--skip-bad] FILE|DIR... documents (JSON Lines, TSV) and graph files
//	medkb query [--json] QUERY|-          one RETRIEVE statement
//	medkb repl                            interactive, read-only
//	medkb demo                            the embedded sample and showcase queries
//	medkb stats | show ID... | export | check
//	medkb rebuild | backup DEST           operations
//	medkb serve [--listen ADDR]           one owner of the store, many clients (HTTP/JSON)
//	medkb bench vector|ingest|retrieval|query|pack|graph|evidence, medkb tune
//
// main is a few lines; run builds the cobra command tree so that tests
// drive the whole CLI in process (cmd_test.go). Each subcommand lives in
// its own file (cmd_<verb>.go, bench_<what>.go).
//
// A command that uses a store first asks for its server (medkb.Connect
// on DIR/medkb.sock; kb.go): when one holds the store, the command goes
// through its *medkb.Client, whose methods are the *medkb.DB methods the
// commands call (the kb interface), so the output is the same and no
// lock is taken. Otherwise, or with --no-server, it opens the store
// itself: read-only for anything that only reads, so queries never take
// the writer's lock. check, rebuild and backup call the client's Verify,
// Rebuild and Backup, or else the package-level Check, Rebuild and
// Backup as before (withServer). What only an opened DB has stays on
// the direct path: the repairs an open reports, ingest's progress within
// a batch and the graph it prepares after graph files, and the stored
// entities that a Hetionet edge file's ids resolve against (so such a
// file is rejected through a server); bench query always opens the store.
//
// check reads the system of record read-only before it
// opens a sound store read-write (medkb.Check). corrupt_test.go runs the
// CLI in child processes on damaged copies of a store, so that a panic or
// a fatal signal fails the test instead of ending it.
//
// ingest works file by file in two passes (cmd_ingest.go). The first reads
// and checks every line (docio.Scan with DB.CheckDoc, or the graph
// readers) and writes nothing, so a file with a bad line is rejected
// whole, by file:line. The second reads the file again and writes it in
// batches, one transaction each, so that memory is bounded by the batch
// and not by the file: 200,000 one-line documents once took 2.6 GB in one
// transaction. The price is that a failure in the second pass (a full
// disk, a crash) leaves the batches before it; the ingest replaces
// documents by id, so running it again finishes the file. A rejected file
// does not stop the others: the command goes on and exits 1 at the end,
// naming the rejected files. A directory contributes its .jsonl and .tsv
// data files (graph.Detect), edge files last; metadata tables, other types
// and unknown formats are skipped with a note on stderr.
//
// The embedder is the store's: ingest --embedder (embedFlags, the flags
// bench pack and tune read too) names it for a new store, which records
// it with its first document; every command after that recreates it from
// the store, served at $MEDKB_EMBED_URL (embedServer), the library
// reading no environment itself. A store whose server is not set still
// opens: only what embeds fails, and run adds the hint to set it. The
// reranker of RERANK is the process's, likewise from the environment:
// $MEDKB_RERANK_URL, $MEDKB_RERANK_MODEL, $MEDKB_RERANK_API_KEY
// (reranker).
package main
