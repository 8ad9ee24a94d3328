package graph

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

func TestBuildAuthoredGraph(t *testing.T) {
	ents, triples := readKG(t)
	g := Build(ents, triples)
	st := g.Stats()
	if st.Triples != len(triples) || st.Duplicates != 0 {
		t.Fatalf("stats %+v: want %d distinct triples, no duplicates", st, len(triples))
	}
	wantTypes := []string{"Disease", "Drug", "Gene", "Symptom", "Test", "中药名", "处方", "方名", "证候"}
	if got := g.Types(); !slices.Equal(got, wantTypes) {
		t.Fatalf("Types() = %v, want %v", got, wantTypes)
	}
	if !g.HasRelation("导致") || g.HasRelation("causes_") || !g.HasType("证候") || g.HasType("Syndrome") {
		t.Fatal("HasRelation/HasType disagree with the data")
	}
	pericarditis := mustLookup(t, g, "Disease", "pericarditis") // only in entities.jsonl
	if n := g.Node(pericarditis); n.Name != "pericarditis" || n.Type != "Disease" {
		t.Fatalf("Node = %+v", n)
	}
	hf := mustLookup(t, g, "Disease", "heart failure")
	if got := g.Aliases(hf); !slices.Equal(got, []string{"HF", "congestive heart failure", "心力衰竭"}) {
		t.Fatalf("aliases = %v", got)
	}
	if _, ok := g.Lookup("Disease", "HF"); ok {
		t.Fatal("Lookup matched an alias; it takes names only")
	}
	pairs := g.RelationTypes("treats")
	if !slices.Equal(pairs, []TypePair{{"Drug", "Disease"}}) {
		t.Fatalf("RelationTypes(treats) = %v", pairs)
	}
	if g.RelationTypes("nope") != nil {
		t.Fatal("RelationTypes of an unknown relation is not nil")
	}
}

func TestBuildIsDeterministicAndDeduplicates(t *testing.T) {
	triples := []base.Triple{
		{Head: "b", HeadType: "T", Relation: "r", Tail: "a", TailType: "T", Weight: 0.5},
		{Head: "a", HeadType: "T", Relation: "r", Tail: "c", TailType: "U"},
		{Head: "b", HeadType: "T", Relation: "r", Tail: "a", TailType: "T", Weight: 0.9}, // repeat: first weight wins
		{Head: "c", HeadType: "U", Relation: "s", Tail: "b", TailType: "T"},
		{Head: "a", HeadType: "U", Relation: "s", Tail: "a", TailType: "T"}, // same name, other type
	}
	ents := []base.Entity{{Name: "z", Type: "T", Aliases: []string{"zz"}}, {Name: "z", Type: "T", Aliases: []string{"zz", "z", "zeta"}}}
	g := Build(ents, triples)
	st := g.Stats()
	if st.Entities != 5 || st.Triples != 4 || st.Duplicates != 1 || st.Relations != 2 || st.Types != 2 {
		t.Fatalf("stats %+v", st)
	}
	if got := g.Aliases(mustLookup(t, g, "T", "z")); !slices.Equal(got, []string{"zz", "zeta"}) {
		t.Fatalf("merged aliases = %v", got)
	}
	// Ids follow (type, name) whatever the input order.
	want := []Node{{0, "a", "T"}, {1, "b", "T"}, {2, "z", "T"}, {3, "a", "U"}, {4, "c", "U"}}
	for _, w := range want {
		if got := g.Node(w.ID); got != w {
			t.Fatalf("Node(%d) = %+v, want %+v", w.ID, got, w)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		shuffled := slices.Clone(triples)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		h := Build(ents, shuffled)
		for id := range NodeID(st.Entities) {
			if h.Node(id) != g.Node(id) {
				t.Fatalf("shuffled input changed node %d", id)
			}
			for _, rel := range g.Relations() {
				for _, rev := range []bool{false, true} {
					if !slices.Equal(h.Neighbors(id, rel, rev), g.Neighbors(id, rel, rev)) {
						t.Fatalf("shuffled input changed %s neighbours of %d", rel, id)
					}
				}
			}
		}
	}
	a, b := mustLookup(t, g, "T", "a"), mustLookup(t, g, "T", "b")
	if got := g.Neighbors(b, "r", false); !slices.Equal(got, []NodeID{a}) {
		t.Fatalf("b -r-> = %v", got)
	}
	if got := g.Neighbors(a, "r", true); !slices.Equal(got, []NodeID{b}) {
		t.Fatalf("a <-r- = %v", got)
	}
	ps := pathsOf(t, g, "T -r-> T", b)
	if len(ps) != 1 || ps[0].Weights[0] != 0.5 {
		t.Fatalf("repeated triple should keep the first weight 0.5: %+v", ps)
	}
}

// TestAdjacencyMatchesTriples checks every CSR list against the triples
// of a random graph, in both directions.
func TestAdjacencyMatchesTriples(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for round := range 30 {
		triples := randomTriples(rng, 3+rng.IntN(40), 1+rng.IntN(150))
		g := Build(nil, triples)
		want := map[[3]NodeID]bool{}
		for _, tr := range triples {
			h := mustLookup(t, g, tr.HeadType, tr.Head)
			tl := mustLookup(t, g, tr.TailType, tr.Tail)
			r, _ := g.relationIndex(tr.Relation)
			want[[3]NodeID{h, NodeID(r), tl}] = true
		}
		got := 0
		for id := range NodeID(g.Stats().Entities) {
			for r, rel := range g.Relations() {
				out := g.Neighbors(id, rel, false)
				if !slices.IsSorted(out) {
					t.Fatalf("round %d: unsorted list", round)
				}
				for _, to := range out {
					if !want[[3]NodeID{id, NodeID(r), to}] {
						t.Fatalf("round %d: edge %d -%s-> %d not in input", round, id, rel, to)
					}
					if !slices.Contains(g.Neighbors(to, rel, true), id) {
						t.Fatalf("round %d: reverse list of %d lacks %d", round, to, id)
					}
					got++
				}
			}
		}
		if got != len(want) || g.Stats().Triples != len(want) {
			t.Fatalf("round %d: %d edges in adjacency, %d distinct triples", round, got, len(want))
		}
	}
}

// randomTriples draws triples over n entities of three types and three
// relations.
func randomTriples(rng *rand.Rand, n, m int) []base.Triple {
	types := []string{"A", "B", "C"}
	rels := []string{"r", "s", "t"}
	name := func(i int) (string, string) { return string(rune('a'+i%26)) + string(rune('a'+i/26)), types[i%3] }
	out := make([]base.Triple, m)
	for i := range out {
		h, ht := name(rng.IntN(n))
		tl, tt := name(rng.IntN(n))
		out[i] = base.Triple{Head: h, HeadType: ht, Relation: rels[rng.IntN(3)], Tail: tl, TailType: tt}
	}
	return out
}
