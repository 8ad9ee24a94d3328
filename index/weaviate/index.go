package weaviate

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	wv "github.com/weaviate/weaviate-go-client/v5/weaviate"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/alias"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/medkb/medkb/index/bm25"
)

// Vector index kinds (Options.VectorIndex).
const (
	Flat = "flat" // exact: every admitted vector is compared
	HNSW = "hnsw" // approximate graph search
)

// Options configure Open. Zero values take the defaults each field names.
type Options struct {
	Nodes []Node
	// Collection is the collection this index reads and writes, one per
	// store generation (CollectionName); Alias names the live one.
	Collection, Alias string
	// VectorIndex is Flat (the default: exact, as the embedded scan) or
	// HNSW.
	VectorIndex string
	// EF is HNSW's search breadth, fixed at collection creation; zero
	// means DefaultEF. Weaviate's own default (ef from 100 for k = 10)
	// found 0.91 of the exact top 10 on NFCorpus with medkb's hash
	// embedder (docs/weaviate.md).
	EF int
	// Replicas is the replication factor of a new collection; zero
	// means 1. Reads ask one replica (consistency ONE), writes a quorum.
	Replicas int
	// Timeout bounds each call to a node; zero means 30 s.
	Timeout time.Duration
}

// DefaultEF is Options.EF's default.
const DefaultEF = 256

// Index is one collection on a Weaviate cluster, holding one store
// generation's chunks; see the package doc.
type Index struct {
	opts Options
	c    *cluster
	an   *bm25.Analyzer
}

// ErrBadOptions is returned by Open for options it cannot use.
var ErrBadOptions = errors.New("weaviate: bad options")

// classNameRE is what Weaviate accepts as a collection name.
var classNameRE = regexp.MustCompile(`^[A-Z][_0-9A-Za-z]{0,200}$`)

// Open makes an Index on the collection opts names. Its only I/O is the
// version request the client library sends the first time this process
// names a node (dial); Create makes the collection, the first search
// connects. More replicas than nodes is an error at Create, not here: a
// store may be opened on the nodes of its cluster that are still up.
func Open(opts Options) (*Index, error) {
	switch {
	case len(opts.Nodes) == 0:
		return nil, fmt.Errorf("%w: no node", ErrBadOptions)
	case !classNameRE.MatchString(opts.Collection):
		return nil, fmt.Errorf("%w: collection %q: want a capital letter, then letters, digits or _", ErrBadOptions, opts.Collection)
	case opts.Alias != "" && !classNameRE.MatchString(opts.Alias):
		return nil, fmt.Errorf("%w: alias %q: want a capital letter, then letters, digits or _", ErrBadOptions, opts.Alias)
	case opts.VectorIndex != "" && opts.VectorIndex != Flat && opts.VectorIndex != HNSW:
		return nil, fmt.Errorf("%w: vector index %q: use %q or %q", ErrBadOptions, opts.VectorIndex, Flat, HNSW)
	case opts.Replicas < 0:
		return nil, fmt.Errorf("%w: %d replicas", ErrBadOptions, opts.Replicas)
	}
	if opts.VectorIndex == "" {
		opts.VectorIndex = Flat
	}
	if opts.Replicas == 0 {
		opts.Replicas = 1
	}
	if opts.EF <= 0 {
		opts.EF = DefaultEF
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	an, err := bm25.NewAnalyzer()
	if err != nil {
		return nil, err
	}
	c, err := dial(opts.Nodes, opts.Timeout)
	if err != nil {
		return nil, err
	}
	return &Index{opts: opts, c: c, an: an}, nil
}

// Options returns the options in use, defaults filled in.
func (ix *Index) Options() Options { return ix.opts }

// Property names of a chunk object. Text filter fields keep their query
// language names (base.FieldType and friends).
const (
	propOrd   = "ord"   // the chunk ordinal
	propTerms = "terms" // medkb's analysed tokens, space-separated
	propMeta  = "meta"  // "LEN:KEY=VALUE" for each meta key (metaValue)
)

// Create makes the collection unless it exists: flat or HNSW vectors
// compared by dot product (medkb's vectors are unit length, so it is
// their cosine), one shard (so that BM25's statistics are the whole
// collection's) replicated opts.Replicas times, the terms property
// tokenized on whitespace without stop words, and filterable keyword
// properties tokenized as whole fields. created reports whether it made
// it: a collection made afresh holds nothing, whatever the store last
// recorded of it, so its caller must replay everything into it.
func (ix *Index) Create(ctx context.Context) (created bool, err error) {
	if ix.opts.Replicas > len(ix.opts.Nodes) {
		return false, fmt.Errorf("%w: %d replicas on %d nodes", ErrBadOptions, ix.opts.Replicas, len(ix.opts.Nodes))
	}
	var exists bool
	err = ix.c.do(ctx, "looking for collection "+ix.opts.Collection, func(cl *wv.Client) (err error) {
		exists, err = cl.Schema().ClassExistenceChecker().WithClassName(ix.opts.Collection).Do(ctx)
		return err
	})
	if err != nil || exists {
		return false, err
	}
	class := &models.Class{
		Class:      ix.opts.Collection,
		Vectorizer: "none",
		Properties: properties(),
		InvertedIndexConfig: &models.InvertedIndexConfig{
			Bm25:      &models.BM25Config{K1: 1.2, B: 0.75},
			Stopwords: &models.StopwordConfig{Preset: "none"},
		},
		VectorIndexType:   ix.opts.VectorIndex,
		VectorIndexConfig: vectorConfig(ix.opts),
		ReplicationConfig: &models.ReplicationConfig{Factor: int64(ix.opts.Replicas)},
		ShardingConfig:    map[string]any{"desiredCount": 1},
	}
	err = ix.c.do(ctx, "creating collection "+ix.opts.Collection, func(cl *wv.Client) error {
		return cl.Schema().ClassCreator().WithClass(class).Do(ctx)
	})
	return err == nil, err
}

// vectorConfig is the vector index's configuration: dot product, and
// for HNSW a fixed ef.
func vectorConfig(o Options) map[string]any {
	c := map[string]any{"distance": "dot"}
	if o.VectorIndex == HNSW {
		c["ef"] = o.EF
	}
	return c
}

// properties is the schema of a chunk object.
func properties() []*models.Property {
	yes, no := true, false
	keyword := func(name string) *models.Property {
		return &models.Property{Name: name, DataType: []string{"text"}, Tokenization: "field",
			IndexFilterable: &yes, IndexSearchable: &no}
	}
	ps := []*models.Property{
		{Name: propOrd, DataType: []string{"int"}, IndexFilterable: &yes},
		{Name: propTerms, DataType: []string{"text"}, Tokenization: "whitespace", IndexFilterable: &no, IndexSearchable: &yes},
		{Name: fieldTime, DataType: []string{"int"}, IndexFilterable: &yes, IndexRangeFilters: &yes},
		{Name: propMeta, DataType: []string{"text[]"}, Tokenization: "field", IndexFilterable: &yes, IndexSearchable: &no},
	}
	for _, f := range keywordFields {
		ps = append(ps, keyword(f))
	}
	return ps
}

// Drop deletes collection name (a replaced generation's), if it exists,
// and the aliases that name it (Weaviate keeps them otherwise).
func (ix *Index) Drop(ctx context.Context, name string) error {
	return ix.c.do(ctx, "deleting collection "+name, func(cl *wv.Client) error {
		aliases, err := cl.Alias().Getter().WithClassName(name).Do(ctx)
		if err != nil {
			return err
		}
		for _, a := range aliases {
			if err := cl.Alias().AliasDeleter().WithAliasName(a.Alias).Do(ctx); err != nil {
				return err
			}
		}
		exists, err := cl.Schema().ClassExistenceChecker().WithClassName(name).Do(ctx)
		if err != nil || !exists {
			return err
		}
		return cl.Schema().ClassDeleter().WithClassName(name).Do(ctx)
	})
}

// Publish points the alias at this index's collection, creating the
// alias if need be, and returns the collection it named before ("" when
// new).
func (ix *Index) Publish(ctx context.Context) (previous string, err error) {
	if ix.opts.Alias == "" {
		return "", fmt.Errorf("%w: no alias to publish %s under", ErrBadOptions, ix.opts.Collection)
	}
	a := &alias.Alias{Alias: ix.opts.Alias, Class: ix.opts.Collection}
	err = ix.c.do(ctx, "pointing alias "+ix.opts.Alias+" at "+ix.opts.Collection, func(cl *wv.Client) error {
		all, err := cl.Alias().Getter().Do(ctx)
		if err != nil {
			return err
		}
		for _, x := range all {
			if x.Alias == ix.opts.Alias {
				previous = x.Class
				return cl.Alias().AliasUpdater().WithAlias(a).Do(ctx)
			}
		}
		return cl.Alias().AliasCreator().WithAlias(a).Do(ctx)
	})
	return previous, err
}
