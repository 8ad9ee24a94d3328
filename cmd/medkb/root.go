package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/index/embed"
)

// env holds what every subcommand shares: streams and the store flags.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	db             string
	lockTimeout    time.Duration
	// embedder is ingest's --embedder; nil means the store's.
	embedder embed.Embedder
	noServer bool // --no-server: open the store even when a server holds it
	// quantize is ingest's --quantize: how the store holds its vectors
	// in memory (medkb.Options.Quantize); "" means the store's choice.
	quantize string
	// backend and weaviate are ingest's --backend and --weaviate*
	// (medkb.Options.Backend and Weaviate).
	backend  string
	weaviate medkb.WeaviateOptions
}

// errSilent marks an error already reported to the user (exit status 1).
var errSilent = errors.New("")

// run executes one command line and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	root := &cobra.Command{
		Use:           "medkb",
		Short:         "medkb: a retrieval store for medical RAG",
		Long:          "medkb stores medical documents and knowledge-graph triples on local disk and answers: for this\nclinical query and this token budget, which evidence goes into the LLM's context, in what form, and why.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	for _, add := range []func(*env) *cobra.Command{
		ingestCmd, deleteCmd, queryCmd, replCmd, demoCmd, statsCmd, exportCmd, showCmd, checkCmd, rebuildCmd, backupCmd, serveCmd, benchCmd, tuneCmd,
	} {
		root.AddCommand(add(e))
	}
	refuseUnknown(root)
	root.Version = version()
	root.SetVersionTemplate("medkb {{.Version}}\n")
	if err := root.ExecuteContext(context.Background()); err != nil {
		if !errors.Is(err, errSilent) {
			msg := err.Error()
			if !strings.HasPrefix(msg, "medkb:") {
				msg = "medkb: " + msg
			}
			if errors.Is(err, medkb.ErrNotServed) {
				msg += " (set $MEDKB_EMBED_URL to its server)"
			}
			fmt.Fprintln(stderr, msg)
		}
		return 1
	}
	return 0
}

// storeFlags gives c the flags that name and lock a store: --db and
// --lock-timeout. Only the commands that open a store take them, so the
// help of the others does not offer flags they would ignore.
func (e *env) storeFlags(c *cobra.Command) *cobra.Command {
	defaultDB := os.Getenv("MEDKB_DB")
	if defaultDB == "" {
		defaultDB = "./medkb.kb"
	}
	c.Flags().StringVar(&e.db, "db", defaultDB, "store directory; $MEDKB_DB when set")
	c.Flags().DurationVar(&e.lockTimeout, "lock-timeout", 10*time.Second, "how long to wait for another process's lock")
	return c
}

// options are the medkb.Options of the store flags and the environment.
func (e *env) options(readOnly bool) *medkb.Options {
	return &medkb.Options{ReadOnly: readOnly, LockTimeout: e.lockTimeout, Embedder: e.embedder, EmbedServer: embedServer(), Quantize: e.quantize,
		Reranker: reranker(), Backend: e.backend, Weaviate: e.weaviate}
}

// storeOptions are the options of a new store the command makes itself
// (a bench's): the backend flags only.
func (e *env) storeOptions() *medkb.Options {
	return &medkb.Options{Backend: e.backend, Weaviate: e.weaviate}
}

// backendFlags registers --backend and --weaviate* on c.
func backendFlags(c *cobra.Command, e *env) {
	c.Flags().StringVar(&e.backend, "backend", "", "where a new store retrieves: embedded (default) or weaviate; recorded in the store")
	c.Flags().StringVar(&e.weaviate.Nodes, "weaviate", "", "the Weaviate nodes, comma-separated http://HOST:PORT?grpc=PORT (recorded by a new store; given later, they replace the recorded ones for this run)")
	c.Flags().StringVar(&e.weaviate.VectorIndex, "weaviate-index", "", "a new store's Weaviate vector index: flat (exact, default) or hnsw")
	c.Flags().IntVar(&e.weaviate.Replicas, "weaviate-replicas", 0, "a new store's Weaviate replication factor (default 1)")
}

// reranker is the reranker RERANK calls, served at $MEDKB_RERANK_URL
// (optionally $MEDKB_RERANK_MODEL and $MEDKB_RERANK_API_KEY); nil when
// that is not set, so that a statement with RERANK fails.
func reranker() medkb.Reranker {
	url := os.Getenv("MEDKB_RERANK_URL")
	if url == "" {
		return nil
	}
	return &medkb.HTTPReranker{URL: url, Model: os.Getenv("MEDKB_RERANK_MODEL"), APIKey: os.Getenv("MEDKB_RERANK_API_KEY")}
}

// embedServer says where an OpenAI-compatible embedder is served: the
// library reads no environment, the command does.
func embedServer() embed.OpenAIConfig {
	return embed.OpenAIConfig{BaseURL: os.Getenv("MEDKB_EMBED_URL"),
		APIKey: cmp.Or(os.Getenv("MEDKB_EMBED_API_KEY"), os.Getenv("OPENAI_API_KEY"))}
}

// open opens the store named by --db and says on stderr what a
// read-write open repaired.
func (e *env) open(readOnly bool) (*medkb.DB, error) {
	db, err := medkb.Open(e.db, e.options(readOnly))
	if err != nil {
		return nil, err
	}
	for _, r := range db.Repairs() {
		fmt.Fprintln(e.stderr, "medkb: repaired:", r)
	}
	return db, nil
}
