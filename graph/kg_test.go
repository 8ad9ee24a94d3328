package graph

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// kgDir is the project's small authored graph.
const kgDir = "../testdata/graph"

// readKG reads the authored graph's entities and triples.
func readKG(t testing.TB) ([]base.Entity, []base.Triple) {
	t.Helper()
	var ents []base.Entity
	var triples []base.Triple
	withFile(t, filepath.Join(kgDir, "entities.jsonl"), func(f *os.File) error {
		return ReadEntities(f, f.Name(), func(e base.Entity) error { ents = append(ents, e); return nil })
	})
	withFile(t, filepath.Join(kgDir, "kg.jsonl"), func(f *os.File) error {
		return ReadTriples(f, f.Name(), func(tr base.Triple) error { triples = append(triples, tr); return nil })
	})
	return ents, triples
}

// loadKG builds the authored graph.
func loadKG(t testing.TB) *Graph {
	t.Helper()
	return Build(readKG(t))
}

func withFile(t testing.TB, path string, read func(*os.File) error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := read(f); err != nil {
		t.Fatal(err)
	}
}

// mustLookup finds an entity or fails the test.
func mustLookup(t testing.TB, g *Graph, typ, name string) NodeID {
	t.Helper()
	id, ok := g.Lookup(typ, name)
	if !ok {
		t.Fatalf("no %s %q", typ, name)
	}
	return id
}

// mustParse parses a metapath and checks it against g.
func mustParse(t testing.TB, g *Graph, s string) *Metapath {
	t.Helper()
	m, err := ParseMetapath(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.CheckMetapath(m); err != nil {
		t.Fatal(err)
	}
	return m
}
