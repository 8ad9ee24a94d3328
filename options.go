package medkb

import (
	"errors"
	"fmt"
	"time"

	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/store"
)

// Defaults for Options fields left zero.
const (
	DefaultChunkTokens = 256
	DefaultDim         = embed.DefaultHashDim
)

// Options configure Open. A nil *Options means all defaults. Open (and
// Check and Backup) refuse options that Validate refuses. The package
// reads no environment variable: what a command takes from its
// environment, it passes here.
type Options struct {
	// ReadOnly opens the store for queries only, with a shared lock.
	ReadOnly bool
	// LockTimeout bounds the wait for another process's lock; zero means
	// store.DefaultLockTimeout (10 s). Open never waits forever.
	LockTimeout time.Duration
	// Embedder builds vectors for chunks and queries. Nil means the one the
	// store recorded, or the built-in hash embedder (dimension 384) for a
	// new store.
	Embedder embed.Embedder
	// EmbedServer serves the embedder the store recorded when Embedder is
	// nil and that is an OpenAI-compatible one ("openai:MODEL"): its
	// BaseURL and APIKey, and optionally its timeouts and retries; the
	// store gives Model and Dim. The medkb command fills BaseURL from
	// $MEDKB_EMBED_URL and APIKey from $MEDKB_EMBED_API_KEY, else
	// $OPENAI_API_KEY.
	EmbedServer embed.OpenAIConfig
	// ChunkTokens caps a chunk's length in tokens; zero means 256.
	ChunkTokens int
	// YieldToWriters makes a read-only DB let its generation go while no
	// call is in flight and a writer waits for it (store.WriterWaiting,
	// looked at every 200 ms), and open it again at its next call,
	// which waits for the writer. An interactive reader (medkb repl) sets
	// it, so that leaving it idle does not hold ingests off. Zero: the DB
	// keeps its generation open until Close. Ignored read-write.
	YieldToWriters bool
	// Quantize chooses how the DB holds the vector slab in memory.
	// QuantizeInt8 keeps only int8 codes, a quarter of float32's size
	// (1M x 384: 0.4 GB instead of 1.5 GB), reading the float32 vectors
	// back from the store file to rescore each query's best candidates
	// and for PACK; queries then scan int8 unless they say
	// vector(scan=f32), which such a DB answers exactly by reading every
	// vector back from the file (some 0.2 s a query at 100k vectors: a
	// check, not a serving mode). QuantizeF32 keeps float32. "" means
	// what the store recorded: int8 for a new store, float32 for one
	// with writes that recorded nothing (made before int8 became the
	// default).
	// A read-write Open records the choice in the store (`medkb ingest
	// --quantize f32`), so later opens follow it; the vectors on disk
	// are float32 either way.
	Quantize string
	// Reranker serves RERANK (docs/query-language.md): nil fails a
	// statement with RERANK. HTTPReranker calls a TEI, Jina or Cohere
	// rerank server; the medkb command sets one when $MEDKB_RERANK_URL
	// is set.
	Reranker Reranker
	// Backend chooses where a new store's retrieval arms search:
	// BackendEmbedded (the store's own indexes) or BackendWeaviate (a
	// Weaviate cluster that Weaviate describes). A store records its
	// choice at creation and keeps it; "" means the store's choice, the
	// embedded backend for a new store. Naming another backend than an
	// existing store's is ErrBackendMismatch.
	Backend  string
	Weaviate WeaviateOptions
}

// The values of Options.Quantize.
const (
	QuantizeF32  = "f32"
	QuantizeInt8 = "int8"
)

// yieldInterval is how often a DB with Options.YieldToWriters looks for
// a waiting writer.
const yieldInterval = 200 * time.Millisecond

// Validate reports the fields of o that cannot be used, each error
// naming its field: a negative LockTimeout or ChunkTokens (zero is the
// default; a negative value is a mistake, not a wish for the default),
// an Embedder of no dimension. A nil *Options is valid.
func (o *Options) Validate() error {
	if o == nil {
		return nil
	}
	err := checkCommon("Options", o.LockTimeout, o.ChunkTokens, o.Embedder)
	if o.Quantize != "" && o.Quantize != QuantizeF32 && o.Quantize != QuantizeInt8 {
		err = errors.Join(err, fmt.Errorf("medkb: Options.Quantize is %q: use %q, %q or nothing (the store's choice)", o.Quantize, QuantizeF32, QuantizeInt8))
	}
	if o.Backend != "" && o.Backend != BackendEmbedded && o.Backend != BackendWeaviate {
		err = errors.Join(err, fmt.Errorf("medkb: Options.Backend is %q: use %q, %q or nothing (the store's choice)", o.Backend, BackendEmbedded, BackendWeaviate))
	}
	return err
}

// Validate is Options.Validate for Rebuild's options, which also refuses
// a negative Grace.
func (o *RebuildOptions) Validate() error {
	if o == nil {
		return nil
	}
	err := checkCommon("RebuildOptions", o.LockTimeout, o.ChunkTokens, o.Embedder)
	if o.Grace < 0 {
		err = errors.Join(err, fmt.Errorf("medkb: RebuildOptions.Grace is %v: it cannot be negative (zero means %v)", o.Grace, DefaultRebuildGrace))
	}
	return err
}

// checkCommon checks the fields Options and RebuildOptions share; typ
// names the struct in the errors.
func checkCommon(typ string, lockTimeout time.Duration, chunkTokens int, emb embed.Embedder) error {
	var errs []error
	if lockTimeout < 0 {
		errs = append(errs, fmt.Errorf("medkb: %s.LockTimeout is %v: a lock timeout cannot be negative (zero means %v)",
			typ, lockTimeout, store.DefaultLockTimeout))
	}
	if chunkTokens < 0 {
		errs = append(errs, fmt.Errorf("medkb: %s.ChunkTokens is %d: a chunk length cannot be negative (zero means %d)",
			typ, chunkTokens, DefaultChunkTokens))
	}
	if emb != nil && emb.Dim() <= 0 {
		errs = append(errs, fmt.Errorf("medkb: %s.Embedder %s has dimension %d; it must be positive", typ, emb.Name(), emb.Dim()))
	}
	return errors.Join(errs...)
}

func (o *Options) chunkTokens() int {
	if o == nil || o.ChunkTokens <= 0 {
		return DefaultChunkTokens
	}
	return o.ChunkTokens
}
