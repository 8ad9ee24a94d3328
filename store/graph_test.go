package store

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/base"
)

// TestPutGraphShuffledAtScale puts 100,000 triples in random order, over
// 10,000 entities, in one transaction and then again: key order makes it
// take about a second, where file order took a minute (bbolt keeps a
// transaction's new keys for a page in one sorted slice until commit).
// The second put adds nothing and keeps the last source given.
func TestPutGraphShuffledAtScale(t *testing.T) {
	s := openTest(t)
	rng := rand.New(rand.NewPCG(5, 6))
	const nodes, edges = 10_000, 100_000
	triples := make([]base.Triple, edges)
	for i := range triples {
		triples[i] = base.Triple{
			Head: fmt.Sprintf("gene %d", rng.IntN(nodes)), HeadType: "Gene", Relation: "regulates",
			Tail: fmt.Sprintf("gene %d", i%nodes), TailType: "Gene", Source: "first", Weight: float64(i % 7),
		}
	}
	rng.Shuffle(len(triples), func(i, j int) { triples[i], triples[j] = triples[j], triples[i] })
	start := time.Now()
	first, err := s.PutGraph([]base.Entity{{Name: "gene 1", Type: "Gene", Aliases: []string{"Gene::1"}}}, triples)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	t.Logf("%d triples in %v", edges, took)
	if took > time.Minute {
		t.Errorf("put %d shuffled triples in %v", edges, took)
	}
	for i := range triples {
		triples[i].Source = "second"
	}
	again, err := s.PutGraph(nil, append(triples, triples[0]))
	if err != nil {
		t.Fatal(err)
	}
	ents, stored, err := s.LoadGraph()
	if err != nil {
		t.Fatal(err)
	}
	if first.Entities != len(ents) || first.Triples != len(stored) || again.Entities != 0 || again.Triples != 0 {
		t.Fatalf("first put %+v, second %+v; stored %d entities, %d triples", first, again, len(ents), len(stored))
	}
	if m, _ := s.Meta(); m.Entities != len(ents) || m.Triples != len(stored) {
		t.Fatalf("counters say %d entities and %d triples, %d and %d stored", m.Entities, m.Triples, len(ents), len(stored))
	}
	for _, tr := range stored {
		if tr.Source != "second" {
			t.Fatalf("%+v: the last source given did not win", tr)
		}
	}
	for _, e := range ents {
		if e.Name == "gene 1" && (len(e.Aliases) != 1 || e.Aliases[0] != "Gene::1") {
			t.Fatalf("%+v: aliases lost", e)
		}
	}
}
