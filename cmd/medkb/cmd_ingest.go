package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/docio"
	"github.com/medkb/medkb/store"
)

func ingestCmd(e *env) *cobra.Command {
	var skipBad, noSpaceCheck bool
	var ef embedFlags
	c := &cobra.Command{
		Use:   "ingest [--skip-bad] [--embedder openai:MODEL --embed-dim N] FILE|DIR|-...",
		Short: "add or replace documents (JSON Lines, TSV) and graph files in the store",
		Long: `Ingest upserts documents by id. Each file is read and checked whole before any
of it is written: by default a file with any bad line is rejected, naming
file:line and the reason for the first 20 bad lines, and nothing of it is
written. --skip-bad ingests the good lines and reports the bad ones. A
checked file is then written in batches (2,048 documents or 16 MiB of text,
100,000 graph records), one transaction each, so that memory stays bounded
however long the file. A file of more than one batch is refused up front
when the disk has less free space than it would take (estimated on the
high side); should writing still fail midway (a full disk, a crash), the
batches before the failure stay, and running the same ingest again
finishes the file.

Documents are JSON Lines ({"id", "text", ...}; see docs/ingest.md) or TSV
(id<TAB>text). A supplied "vector" must name the model that made it in
"embedder", the store's embedder; a line with another, or none, is bad.

A new store keeps only int8 codes of its vectors in memory (1M x 384:
0.4 GB instead of 1.5 GB); queries scan the codes and rescore their best
candidates exactly from the store file. --quantize f32 keeps float32
vectors in memory instead, --quantize int8 switches a store made before
int8 became the default; the store records the choice. Not through a
server.

--backend weaviate --weaviate http://127.0.0.1:8080?grpc=50051,... makes a
new store retrieve from a Weaviate cluster (docs/weaviate.md): the store
records the choice and the nodes, writes go to the store first and are
then replayed to the cluster, and queries fuse, expand and pack in medkb
as they do on the embedded indexes. --weaviate-index hnsw trades exact
vector search for speed; --weaviate-replicas 3 keeps queries up while a
node is down. An existing store keeps the backend it was created with.

--embedder openai:MODEL --embed-dim N builds a new store with a model of an
OpenAI-compatible server (--embed-url, default $MEDKB_EMBED_URL): the store
records it with its first document, and later commands embed with it,
served at $MEDKB_EMBED_URL. A store built with another embedder refuses it.

Knowledge-graph files are recognised by their content: triples as JSON
Lines {"head", "head_type", "relation", "tail", "tail_type"} or TSV with
those columns, entities {"name", "type", "aliases"}, TCM relations
{"Disease": ..., "Syndrome": ..., "Relation": ...}, and Hetionet node and
edge TSVs, node files first.

"-" reads documents from standard input, checked whole like a file: the
input is first copied to a temporary file (an ingest reads its input
twice), which is removed at the end.

A directory is read recursively: its .jsonl and .tsv files, in name order
(Hetionet edge files last). Files of other types, Hetionet's metadata
tables (metaedges.tsv, metanodes.tsv) and files in no format medkb reads
are skipped with a note. A file that is rejected does not stop the others:
the command goes on, and exits 1 at the end naming the rejected files; the
files it ingested stay.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			args, stdin, cleanup, err := e.spoolStdin(args)
			defer cleanup()
			if err != nil {
				return err
			}
			inputs, err := e.classifyInputs(args)
			if err != nil {
				return err
			}
			for i := range inputs {
				if stdin != "" && inputs[i].path == stdin {
					inputs[i].name = "stdin"
				}
			}
			emb, err := ef.embedder()
			if err != nil {
				return err
			}
			e.embedder = emb
			r := &ingestRun{env: e, cmd: cmd, skipBad: skipBad, noSpaceCheck: noSpaceCheck, chunkTokens: medkb.DefaultChunkTokens}
			err = r.checkFirst(inputs)
			defer r.close()
			if errors.Is(err, store.ErrEmbedderMismatch) {
				return fmt.Errorf("%s: --embedder: %w", e.db, err)
			}
			if err != nil {
				return err
			}
			var rejected []string
			for i, in := range inputs {
				err := r.ingest(in)
				var rej *rejectedError
				switch {
				case errors.As(err, &rej):
					fmt.Fprintf(e.stderr, "medkb: %v\n", err)
					rejected = append(rejected, in.label())
				case err != nil && len(inputs) == 1:
					return err
				case err != nil:
					return fmt.Errorf("%w\n%s", err, doneSoFar(i-len(rejected), rejected, len(inputs)-i-1))
				}
			}
			r.openGraph()
			if len(rejected) > 0 {
				return fmt.Errorf("%d of %d file(s) rejected: %s; the other %d were ingested and stay committed",
					len(rejected), len(inputs), strings.Join(rejected, ", "), len(inputs)-len(rejected))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&skipBad, "skip-bad", false, "ingest the good lines of a file and report the bad ones")
	c.Flags().BoolVar(&noSpaceCheck, "no-space-check", false, "write a file of many batches even when the disk seems too full for it")
	c.Flags().StringVar(&e.quantize, "quantize", "", "how the store holds its vectors in memory from now on: int8 (codes, a quarter of the memory; the best candidates rescored exactly from the store file; a new store's default) or f32; recorded in the store")
	backendFlags(c, e)
	ef.register(c, "", "what a new store embeds with, recorded at its first document (default hash-v1); an existing store's must match")
	return e.routedStoreFlags(c, ingestServerHelp)
}

// doneSoFar says, after an ingest stopped, what stays and what was not read.
func doneSoFar(ingested int, rejected []string, unread int) string {
	s := fmt.Sprintf("medkb: ingest stopped: the %d file(s) ingested before stay committed", ingested)
	if len(rejected) > 0 {
		s += fmt.Sprintf("; rejected: %s", strings.Join(rejected, ", "))
	}
	return s + fmt.Sprintf("; %d file(s) not read", unread)
}

// rejectedError is a file refused before any of it was written: it cannot
// be read, is in no format medkb ingests, or has bad lines. The ingest
// goes on with the other files.
type rejectedError struct{ err error }

func (e *rejectedError) Error() string { return e.err.Error() }
func (e *rejectedError) Unwrap() error { return e.err }

func reject(format string, args ...any) error {
	return &rejectedError{fmt.Errorf(format, args...)}
}

// Batch sizes of the write phase: they bound the memory an ingest needs
// beyond the store's own, whatever the length of a file.
var (
	docBatch       = 2048     // documents per transaction
	docBatchText   = 16 << 20 // bytes of text per transaction
	graphBatchSize = 100_000  // entities and triples per transaction
)

// ingestRun is one `medkb ingest`: the open store and what the files so
// far left behind.
type ingestRun struct {
	*env
	cmd *cobra.Command
	// db is read-only while the files are checked (checkFirst); the
	// server's client when a server holds the store.
	db kb
	// checkOne is checkDoc's check of a document (docChecker).
	checkOne func(*medkb.Doc) error
	// checked holds each document file's check, by path.
	checked map[string]docCheck
	skipBad bool
	// noSpaceCheck turns checkSpace off; dim and chunkTokens feed its
	// estimate.
	noSpaceCheck     bool
	dim, chunkTokens int
	ids              map[string]string // Hetionet id -> entity name; nil after new entities
	// wroteGraph: a graph file was written, so the graph's compact form
	// is built once at the end (openGraph).
	wroteGraph bool
}

// openGraph builds the knowledge graph once after graph files were
// written and saves its compact form, so that the next query that
// expands opens it in one read instead of building it. A failure costs
// only that: the triples are committed, and the query builds it. A
// server holding the store builds its graph at its first query that
// expands, and keeps it.
func (r *ingestRun) openGraph() {
	db, ok := r.db.(*medkb.DB)
	if !r.wroteGraph || !ok {
		return
	}
	note, err := db.OpenGraph(r.cmd.Context())
	if err != nil {
		fmt.Fprintf(r.stderr, "medkb: the triples are committed, but preparing the graph for queries failed (the first query that expands will build it): %v\n", err)
		return
	}
	fmt.Fprintf(r.stdout, "knowledge graph: %s\n", note)
}

func (r *ingestRun) ingest(in input) error {
	switch {
	case in.err != nil:
		return &rejectedError{in.err}
	case in.kind == graph.KindDocuments:
		return r.docs(in)
	case in.kind == graph.KindHetionetMeta:
		return reject("%s: Hetionet metadata (the graph's schema), not data: nothing to ingest", in.label())
	}
	return r.graph(in)
}

// checkDocs reads and checks one document file whole: nothing is
// written when a line is bad, unless --skip-bad; a file of many batches
// is refused when the disk looks too small for it (checkSpace).
func (r *ingestRun) checkDocs(in input) (*docio.Result, error) {
	path := in.label()
	need := uint64(0)
	res, err := scanDocs(in.path, path, func(n int, d base.Doc) error {
		if err := r.checkDoc(d); err != nil {
			return err
		}
		need += r.storeBytes(len(d.Text))
		return nil
	})
	if err != nil {
		return nil, &rejectedError{err}
	}
	if bad := res.Err(); bad != nil {
		if !r.skipBad {
			return nil, reject("%s rejected, nothing ingested: %w", path, bad)
		}
		fmt.Fprintf(r.stderr, "medkb: skipping %v\n", bad)
	}
	return res, r.checkSpace(path, res.Good, need)
}

// checkDoc is the check of one line: the error Ingest would reject it with.
func (r *ingestRun) checkDoc(d base.Doc) error {
	if err := r.checkOne((*medkb.Doc)(&d)); err != nil {
		return &docio.LineError{Reason: err.Error()}
	}
	return nil
}

// docs writes one document file checked by checkDocs: it is read again
// and written in batches, skipping the bad lines --skip-bad let through.
func (r *ingestRun) docs(in input) error {
	path := in.label()
	start := time.Now()
	c := r.checked[in.path]
	if c.err != nil {
		return c.err
	}
	res := c.res
	var bar *progressbar.ProgressBar
	if isTerminal(r.stderr) && res.Good >= 1000 {
		bar = progressbar.NewOptions(res.Good, progressbar.OptionSetWriter(r.stderr),
			progressbar.OptionSetDescription(filepath.Base(path)), progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish())
		defer bar.Finish()
	}
	var total medkb.IngestResult
	var batch []medkb.Doc
	var lines, committing []int // the file's lines of batch, and of the batch committing
	text, sent := 0, 0
	w := &batchWriter{ctx: r.cmd.Context(), db: r.db}
	defer bulkGC()()
	fail := func(err error, at []int) error {
		err = lineOf(err, at)
		if total.Docs == 0 {
			return fmt.Errorf("%s: %w; nothing of it was written", path, err)
		}
		return fmt.Errorf("%s: %w; its first %d document(s), before line %d, were written and stay committed "+
			"(an ingest replaces documents by id: running it again finishes the file)", path, err, total.Docs, at[0])
	}
	settle := func() error { // waits for the batch committing
		out, err := w.wait()
		if err != nil {
			return fail(err, committing)
		}
		if out != nil {
			total.Docs += out.Docs
			total.Chunks += out.Chunks
			total.IndexErr = out.IndexErr // each write replays what the index missed before it
		}
		return nil
	}
	flush := func() error { // prepares batch while the one before commits
		if len(batch) == 0 {
			return nil
		}
		b, err := w.prepare(batch, func(done, _ int) {
			if bar != nil {
				bar.Set(sent + done)
			}
		})
		if err := settle(); err != nil {
			return err
		}
		if err != nil {
			return fail(err, lines)
		}
		w.commit(b)
		sent += len(batch)
		committing, batch, lines, text = lines, nil, nil, 0
		return nil
	}
	_, err := scanDocs(in.path, path, func(n int, d base.Doc) error {
		if r.checkDoc(d) != nil {
			return nil // a bad line --skip-bad skips, reported above
		}
		batch = append(batch, medkb.Doc(d))
		lines = append(lines, n)
		if text += len(d.Text); len(batch) >= docBatch || text >= docBatchText {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if serr := settle(); serr != nil {
		return serr
	}
	if err != nil {
		return err
	}
	st, err := r.db.Stats()
	if err != nil {
		return err
	}
	fmt.Fprintf(r.stdout, "%s: ingested %d document(s) (%d chunk(s), %d bad line(s) skipped) in %s; store has %d document(s)\n",
		path, total.Docs, total.Chunks, res.NBad, time.Since(start).Round(time.Millisecond), st.Docs)
	if total.IndexErr != nil {
		fmt.Fprintf(r.stderr, "medkb: %s: the documents are committed, but queries fail until the index catches up: %v\n", path, total.IndexErr)
	}
	return nil
}

// storeBytes estimates, on the high side, what a document of n bytes of
// text adds to a store's files, from two measured stores (bbolt file,
// BM25 index): per chunk (about 4 bytes a token) a vector, its slot and
// records; per byte of text the document and chunk records, the replay
// log, the BM25 index and the slack of bbolt's pages. 200,000 one-line
// documents took 2.1 KB each (estimated 2.7 KB); NFCorpus's 3,162
// abstracts 12.7 KB (estimated 14.8 KB).
func (r *ingestRun) storeBytes(n int) uint64 {
	chunks := 1 + n/(4*r.chunkTokens)
	return uint64(10*n + chunks*(4*r.dim+1024))
}

// checkSpace refuses a file that takes more than one batch when the disk
// holding the store has less free space than the file needs (about
// need bytes): a failure in a later batch would leave the batches before
// it, and a refusal up front leaves the store as it was. A file of one
// batch needs no check: its one transaction fails whole.
func (r *ingestRun) checkSpace(path string, docs int, need uint64) error {
	if r.noSpaceCheck || docs <= docBatch && need <= uint64(docBatchText) {
		return nil
	}
	free, ok := freeBytes(r.env.db)
	if !ok || free >= need {
		return nil
	}
	return reject("%s rejected, nothing ingested: its %d documents need about %s in the store and %s has %s free; "+
		"free some space, or split the file (--no-space-check writes it anyway, batch by batch)",
		path, docs, mib(need), r.env.db, mib(free))
}

// mib formats a size in MiB.
func mib(n uint64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// scanDocs reads the documents of one file, calling fn with each good
// one; name is what its line errors call the file.
func scanDocs(path, name string, fn func(line int, d base.Doc) error) (*docio.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return docio.Scan(f, name, fn)
}

// publicDocs converts documents read by docio to the API's.
func publicDocs(docs []base.Doc) []medkb.Doc {
	out := make([]medkb.Doc, len(docs))
	for i, d := range docs {
		out[i] = medkb.Doc(d)
	}
	return out
}

// lineOf maps "document N" of a batch in an ingest error back to its
// input line; a server's error names it the same way.
func lineOf(err error, lines []int) error {
	var de *medkb.DocError
	var re *medkb.RemoteError
	switch {
	case errors.As(err, &de) && de.Index < len(lines):
		return fmt.Errorf("line %d: %w", lines[de.Index], de.Err)
	case errors.As(err, &re) && re.Code == "bad_document" && re.Index < len(lines):
		doc := *re // without DocError's "document N (ID): ", as above
		doc.Message = strings.TrimPrefix(re.Message, (&medkb.DocError{Index: re.Index, ID: re.ID, Err: errors.New("")}).Error())
		return fmt.Errorf("line %d: %w", lines[re.Index], &doc)
	}
	return err
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
