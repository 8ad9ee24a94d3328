package store

import (
	"context"
	"errors"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// TestGraphSeqCountsGraphWrites: every PutGraph bumps the graph
// sequence, an alias merge that adds no entity or triple included, and
// LoadGraphVersion returns the version its entities and triples are as
// of, which Meta agrees with. Document writes leave it alone.
func TestGraphSeqCountsGraphWrites(t *testing.T) {
	s := openTest(t)
	if m, _ := s.Meta(); m.GraphSeq != 0 {
		t.Fatalf("new store: graph sequence %d", m.GraphSeq)
	}
	tr := base.Triple{Head: "MI", HeadType: "Disease", Relation: "has_symptom", Tail: "chest pain", TailType: "Symptom"}
	for i, ents := range [][]base.Entity{nil, {{Name: "MI", Type: "Disease", Aliases: []string{"heart attack"}}}} {
		if _, err := s.PutGraph(ents, []base.Triple{tr}); err != nil {
			t.Fatal(err)
		}
		ents, triples, v, err := s.LoadGraphVersion(context.Background())
		if err != nil || v != (GraphVersion{Seq: uint64(i + 1), Entities: 2, Triples: 1}) || len(triples) != 1 || len(ents) != 2 {
			t.Fatalf("after put %d: version %+v, %d entities, %d triples, %v", i+1, v, len(ents), len(triples), err)
		}
		if m, _ := s.Meta(); m.GraphVersion() != v {
			t.Fatalf("Meta's version %+v, LoadGraphVersion's %+v", m.GraphVersion(), v)
		}
	}
	write(t, s, &Batch{Put: []DocWrite{docWrite("d", base.T1, "x")}})
	if m, _ := s.Meta(); m.GraphSeq != 2 {
		t.Fatalf("a document write moved the graph sequence to %d", m.GraphSeq)
	}
}

// TestLoadGraphVersionStops: a cancelled context stops the read of the
// triples.
func TestLoadGraphVersionStops(t *testing.T) {
	s := openTest(t)
	if _, err := s.PutGraph(nil, []base.Triple{{Head: "a", HeadType: "A", Relation: "r", Tail: "b", TailType: "A"}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, _, err := s.LoadGraphVersion(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}
