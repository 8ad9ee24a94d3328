package graph

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// sameGraph fails unless a and b answer every query alike: nodes,
// aliases, types, relations and their type pairs, every adjacency list
// with its weights, the stats, and expansion.
func sameGraph(t testing.TB, a, b *Graph) {
	t.Helper()
	if a.Stats() != b.Stats() || !slices.Equal(a.Types(), b.Types()) || !slices.Equal(a.Relations(), b.Relations()) {
		t.Fatalf("stats %+v vs %+v, types %v vs %v", a.Stats(), b.Stats(), a.Types(), b.Types())
	}
	for id := range NodeID(a.Stats().Entities) {
		if a.Node(id) != b.Node(id) || !slices.Equal(a.Aliases(id), b.Aliases(id)) {
			t.Fatalf("node %d: %+v %v vs %+v %v", id, a.Node(id), a.Aliases(id), b.Node(id), b.Aliases(id))
		}
		if got, ok := b.Lookup(a.Node(id).Type, a.Node(id).Name); !ok || got != id {
			t.Fatalf("Lookup of node %d gives %d, %v", id, got, ok)
		}
	}
	for i := range a.rels {
		ra, rb := &a.rels[i], &b.rels[i]
		if !slices.Equal(ra.pairs, rb.pairs) {
			t.Fatalf("relation %s pairs %v vs %v", ra.name, ra.pairs, rb.pairs)
		}
		for _, d := range [][2]*adjacency{{&ra.out, &rb.out}, {&ra.in, &rb.in}} {
			if d[0].lo != d[1].lo || !slices.Equal(d[0].offsets, d[1].offsets) || !slices.Equal(d[0].targets, d[1].targets) ||
				!slices.Equal(d[0].weights, d[1].weights) || (d[0].weights == nil) != (d[1].weights == nil) {
				t.Fatalf("relation %s: adjacency differs", ra.name)
			}
		}
	}
}

func roundTrip(t testing.TB, g *Graph) *Graph {
	t.Helper()
	data, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	h, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, g, h)
	return h
}

func TestEncodeRoundTripAuthored(t *testing.T) {
	g := loadKG(t)
	h := roundTrip(t, g)
	m := mustParse(t, h, "Disease -risk_factor_for*1..4-> Disease -has_symptom-> Symptom")
	hf := mustLookup(t, g, "Disease", "hypertension")
	want, _ := g.Expand(context.Background(), []NodeID{hf}, m, ExpandOptions{Limit: 50})
	got, _ := h.Expand(context.Background(), []NodeID{hf}, m, ExpandOptions{Limit: 50})
	if len(got) == 0 || !slices.EqualFunc(got, want, func(a, b Path) bool { return signature(a) == signature(b) && a.Score == b.Score }) {
		t.Fatalf("decoded graph expands to %d paths, built one to %d", len(got), len(want))
	}
	const text = "hypertension with chest pain"
	if a, b := g.Link(text, "Disease"), h.Link(text, "Disease"); len(a) == 0 || !slices.Equal(a, b) {
		t.Fatalf("links %v vs %v", a, b)
	}
}

func TestEncodeRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for range 50 {
		triples := randomTriples(rng, 1+rng.IntN(60), 1+rng.IntN(200))
		for i := range triples {
			if rng.IntN(3) == 0 {
				triples[i].Weight = rng.Float64()
			}
		}
		ents := []base.Entity{{Name: "x y", Type: "A", Aliases: []string{"ex", "why"}}, {Name: "中药", Type: "B", Aliases: []string{"草药"}}}
		roundTrip(t, Build(ents, triples))
	}
	roundTrip(t, Build(nil, nil))
}

// TestDecodeRejectsDamage: every truncation and many byte changes of a
// graph's binary form decode to an error or to a graph that is sound
// (its methods do not panic), never to a panic.
func TestDecodeRejectsDamage(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	triples := randomTriples(rng, 30, 120)
	triples[0].Weight = 0.5
	data, err := Build([]base.Entity{{Name: "aa", Type: "A", Aliases: []string{"alpha"}}}, triples).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(data) {
		if _, err := Decode(data[:n]); !errors.Is(err, ErrBadEncoding) {
			t.Fatalf("truncated to %d of %d bytes: %v", n, len(data), err)
		}
	}
	if _, err := Decode(append(slices.Clone(data), 0)); !errors.Is(err, ErrBadEncoding) {
		t.Fatalf("a byte too many: %v", err)
	}
	for range 3000 {
		bad := slices.Clone(data)
		for range 1 + rng.IntN(3) {
			bad[rng.IntN(len(bad))] ^= byte(1 + rng.IntN(255))
		}
		g, err := Decode(bad)
		if err != nil {
			if !errors.Is(err, ErrBadEncoding) {
				t.Fatalf("error %v does not wrap ErrBadEncoding", err)
			}
			continue
		}
		exercise(g)
	}
}

// exercise calls the methods a query calls on every node and relation.
func exercise(g *Graph) {
	for id := range NodeID(g.Stats().Entities) {
		n := g.Node(id)
		g.Lookup(n.Type, n.Name)
		g.Aliases(id)
		for _, r := range g.Relations() {
			g.Neighbors(id, r, false)
			g.Neighbors(id, r, true)
		}
	}
	for _, typ := range g.Types() {
		g.Link("aa alpha ab ba", typ)
		for _, r := range g.Relations() {
			for _, to := range g.Types() {
				if m, err := ParseMetapath(typ + " -" + r + "*-> " + to); err == nil {
					g.Expand(context.Background(), []NodeID{0, 1, 2}, m, ExpandOptions{Hops: 3})
				}
			}
		}
	}
}

func FuzzDecode(f *testing.F) {
	data, err := Build(nil, randomTriples(rand.New(rand.NewPCG(1, 1)), 8, 20)).MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := Decode(b)
		if err != nil {
			return
		}
		exercise(g)
		again, err := g.MarshalBinary()
		if err != nil || !slices.Equal(again, b) {
			t.Fatalf("a decoded graph does not encode to its input: %v", err)
		}
	})
}
