package medkb

import (
	"context"
	"embed"
	"io/fs"

	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/docio"
)

//go:embed testdata/corpus/docs.jsonl testdata/graph/*.jsonl
var sample embed.FS

// Sample returns the small corpus and knowledge graph written for this
// project (English and Chinese, four tiers, three patients, literature),
// embedded in the binary so `medkb demo` runs anywhere. Paths:
// "corpus/docs.jsonl", "graph/entities.jsonl", "graph/kg.jsonl".
func Sample() fs.FS {
	sub, err := fs.Sub(sample, "testdata")
	if err != nil {
		panic("medkb: embedded sample missing: " + err.Error())
	}
	return sub
}

// LoadSample ingests the embedded sample (see Sample) into db: the
// documents first, then the graph. It is what `medkb demo` runs on, and
// the fixture of the tests that need a small real store.
func LoadSample(ctx context.Context, db *DB) error {
	docs, ents, triples, err := readSample()
	if err != nil {
		return err
	}
	if _, err := db.Ingest(ctx, docs); err != nil {
		return err
	}
	_, err = db.IngestGraph(ctx, ents, triples)
	return err
}

// readSample reads the embedded sample's documents, entities and triples.
// A bad line in any of them is an error.
func readSample() (docs []Doc, ents []Entity, triples []Triple, err error) {
	fsys := Sample()
	read := func(name string, fn func(fs.File) error) error {
		f, err := fsys.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		return fn(f)
	}
	err = read("corpus/docs.jsonl", func(f fs.File) error {
		res, err := docio.ReadJSONL(f, "corpus/docs.jsonl")
		if err == nil {
			err = res.Err()
		}
		docs = convert(res.Docs, fromBaseDoc)
		return err
	})
	if err == nil {
		err = read("graph/entities.jsonl", func(f fs.File) error {
			return graph.ReadEntities(f, "graph/entities.jsonl", func(e base.Entity) error { ents = append(ents, fromBaseEntity(e)); return nil })
		})
	}
	if err == nil {
		err = read("graph/kg.jsonl", func(f fs.File) error {
			return graph.ReadTriples(f, "graph/kg.jsonl", func(t base.Triple) error { triples = append(triples, Triple(t)); return nil })
		})
	}
	return docs, ents, triples, err
}
