package store

import (
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// TestGraphSeqCountsGraphWrites: every PutGraph bumps the graph
// sequence, an alias merge that adds no entity or triple included, and
// LoadGraphSeq returns the sequence its entities and triples are as of.
// Document writes leave it alone.
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
		ents, triples, seq, err := s.LoadGraphSeq()
		if err != nil || seq != uint64(i+1) || len(triples) != 1 || len(ents) != 2 {
			t.Fatalf("after put %d: sequence %d, %d entities, %d triples, %v", i+1, seq, len(ents), len(triples), err)
		}
		if m, _ := s.Meta(); m.GraphSeq != seq {
			t.Fatalf("Meta.GraphSeq %d, LoadGraphSeq %d", m.GraphSeq, seq)
		}
	}
	write(t, s, &Batch{Put: []DocWrite{docWrite("d", base.T1, "x")}})
	if m, _ := s.Meta(); m.GraphSeq != 2 {
		t.Fatalf("a document write moved the graph sequence to %d", m.GraphSeq)
	}
}
