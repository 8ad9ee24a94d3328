package medkb

import (
	"embed"
	"io/fs"
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
