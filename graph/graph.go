package graph

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"github.com/medkb/medkb/internal/base"
)

// NodeID identifies an entity within one Graph. Ids are dense from 0 and
// follow the order of (type, name), so they are the same for the same
// input however it was ordered.
type NodeID uint32

// Node is an entity as it appears in a path.
type Node struct {
	ID   NodeID
	Name string
	Type string
}

// TypePair is a (head type, tail type) pair a relation connects.
type TypePair struct {
	Head, Tail string
}

// Stats describes a built graph.
type Stats struct {
	Entities       int
	Triples        int   // distinct triples
	Duplicates     int   // input triples dropped as repeats
	Types          int   // entity types
	Relations      int   // relation names
	AdjacencyBytes int64 // CSR arrays, both directions, all relations
}

// relation is one relation's adjacency in both directions.
type relation struct {
	name  string
	out   adjacency  // head -> tails
	in    adjacency  // tail -> heads
	pairs []TypePair // sorted
}

// Graph is an immutable in-memory knowledge graph. All methods are safe
// for concurrent use.
type Graph struct {
	names     []string // by NodeID
	nodeType  []uint16 // index into types, by NodeID
	types     []string // sorted
	typeStart []NodeID // nodes of types[i] are typeStart[i] .. typeStart[i+1]-1
	aliases   [][]string
	rels      []relation // sorted by name
	triples   int
	dups      int
	linker    *linker
}

// Build makes a graph from entities and triples. Entities are keyed by
// (type, name); an entity given twice merges its aliases; a triple's
// endpoints are created when no entity names them; a triple repeated
// (same head, types, relation and tail) counts once, keeping the first
// one's weight. Build trusts its input: the readers validate names.
func Build(ents []base.Entity, triples []base.Triple) *Graph {
	var c collector
	c.byType = map[string]map[string]int{}
	for _, e := range ents {
		i := c.add(e.Type, e.Name)
		c.ents[i].aliases = append(c.ents[i].aliases, e.Aliases...)
	}
	relIndex := map[string]int{}
	var relNames []string
	type rawEdge struct {
		from, to, rel int
		w             float32
	}
	raw := make([]rawEdge, 0, len(triples))
	for _, t := range triples {
		r, ok := relIndex[t.Relation]
		if !ok {
			r = len(relNames)
			relIndex[t.Relation] = r
			relNames = append(relNames, t.Relation)
		}
		raw = append(raw, rawEdge{c.add(t.HeadType, t.Head), c.add(t.TailType, t.Tail), r, float32(t.Weight)})
	}

	g := &Graph{}
	id := g.placeNodes(c.ents)
	g.linker = newLinker(len(g.types))

	byRel := make([][]edge, len(relNames))
	for _, e := range raw {
		byRel[e.rel] = append(byRel[e.rel], edge{from: id[e.from], to: id[e.to], w: e.w})
	}
	order := make([]int, len(relNames))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(relNames[a], relNames[b]) })
	for _, r := range order {
		out := buildAdjacency(byRel[r])
		rel := relation{name: relNames[r], out: out, in: out.reversed()}
		rel.pairs = g.typePairs(&rel.out)
		g.rels = append(g.rels, rel)
		g.triples += len(out.targets)
	}
	g.dups = len(triples) - g.triples
	return g
}

// collector gathers entities by (type, name) in order of appearance.
type collector struct {
	byType map[string]map[string]int
	ents   []pending
}

type pending struct {
	typ, name string
	aliases   []string
}

func (c *collector) add(typ, name string) int {
	names, ok := c.byType[typ]
	if !ok {
		names = map[string]int{}
		c.byType[typ] = names
	}
	i, ok := names[name]
	if !ok {
		i = len(c.ents)
		names[name] = i
		c.ents = append(c.ents, pending{typ: typ, name: name})
	}
	return i
}

// placeNodes sorts the entities by (type, name), fills the node tables and
// returns the NodeID of each pending entity.
func (g *Graph) placeNodes(ents []pending) []NodeID {
	order := make([]int, len(ents))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(ents[a].typ, ents[b].typ), cmp.Compare(ents[a].name, ents[b].name))
	})
	id := make([]NodeID, len(ents))
	g.names = make([]string, len(ents))
	g.nodeType = make([]uint16, len(ents))
	g.aliases = make([][]string, len(ents))
	for pos, i := range order {
		e := ents[i]
		if len(g.types) == 0 || g.types[len(g.types)-1] != e.typ {
			if len(g.types) > math.MaxUint16 {
				panic("graph: more than 65536 entity types")
			}
			g.types = append(g.types, e.typ)
			g.typeStart = append(g.typeStart, NodeID(pos))
		}
		id[i] = NodeID(pos)
		g.names[pos] = e.name
		g.nodeType[pos] = uint16(len(g.types) - 1)
		g.aliases[pos] = uniqueAliases(e.name, e.aliases)
	}
	g.typeStart = append(g.typeStart, NodeID(len(ents)))
	return id
}

// uniqueAliases drops repeats and the name itself, keeping first-seen order.
func uniqueAliases(name string, aliases []string) []string {
	var out []string
	for _, a := range aliases {
		if a != name && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// typePairs lists the (head type, tail type) pairs of a's edges.
func (g *Graph) typePairs(a *adjacency) []TypePair {
	seen := map[[2]uint16]bool{}
	for i := range len(a.offsets) - 1 {
		from := a.lo + NodeID(i)
		for _, to := range a.targets[a.offsets[i]:a.offsets[i+1]] {
			seen[[2]uint16{g.nodeType[from], g.nodeType[to]}] = true
		}
	}
	pairs := make([]TypePair, 0, len(seen))
	for p := range seen {
		pairs = append(pairs, TypePair{g.types[p[0]], g.types[p[1]]})
	}
	slices.SortFunc(pairs, func(x, y TypePair) int {
		return cmp.Or(cmp.Compare(x.Head, y.Head), cmp.Compare(x.Tail, y.Tail))
	})
	return pairs
}

// Types returns the entity types, sorted.
func (g *Graph) Types() []string { return slices.Clone(g.types) }

// Relations returns the relation names, sorted.
func (g *Graph) Relations() []string {
	out := make([]string, len(g.rels))
	for i, r := range g.rels {
		out[i] = r.name
	}
	return out
}

// HasType reports whether some entity has type t.
func (g *Graph) HasType(t string) bool {
	_, ok := g.typeIndex(t)
	return ok
}

// HasRelation reports whether some triple has relation r.
func (g *Graph) HasRelation(r string) bool { return g.relation(r) != nil }

// RelationTypes returns the (head type, tail type) pairs that relation r
// connects, sorted; nil when r is unknown.
func (g *Graph) RelationTypes(r string) []TypePair {
	if rel := g.relation(r); rel != nil {
		return slices.Clone(rel.pairs)
	}
	return nil
}

// Stats returns the graph's size.
func (g *Graph) Stats() Stats {
	s := Stats{Entities: len(g.names), Triples: g.triples, Duplicates: g.dups, Types: len(g.types), Relations: len(g.rels)}
	for i := range g.rels {
		s.AdjacencyBytes += g.rels[i].out.bytes() + g.rels[i].in.bytes()
	}
	return s
}

// Lookup finds the entity of type typ called name (its name, not an alias).
func (g *Graph) Lookup(typ, name string) (NodeID, bool) {
	t, ok := g.typeIndex(typ)
	if !ok {
		return 0, false
	}
	lo, hi := int(g.typeStart[t]), int(g.typeStart[t+1])
	i := lo + sort.SearchStrings(g.names[lo:hi], name)
	if i < hi && g.names[i] == name {
		return NodeID(i), true
	}
	return 0, false
}

// Node returns the entity with id n; it panics when n is out of range.
func (g *Graph) Node(n NodeID) Node {
	return Node{ID: n, Name: g.names[n], Type: g.types[g.nodeType[n]]}
}

// Aliases returns the aliases of entity n (not including its name).
func (g *Graph) Aliases(n NodeID) []string { return slices.Clone(g.aliases[n]) }

// Degree is the number of edges at n, of every relation, in and out: how
// much the graph says about n.
func (g *Graph) Degree(n NodeID) int {
	d := 0
	for i := range g.rels {
		d += g.rels[i].out.degree(n) + g.rels[i].in.degree(n)
	}
	return d
}

// Neighbors returns the entities joined to n by relation r: its tails, or
// with reverse its heads. The result is sorted by id.
func (g *Graph) Neighbors(n NodeID, r string, reverse bool) []NodeID {
	rel := g.relation(r)
	if rel == nil {
		return nil
	}
	a := &rel.out
	if reverse {
		a = &rel.in
	}
	targets, _ := a.neighbours(n)
	return slices.Clone(targets)
}

func (g *Graph) typeIndex(t string) (int, bool) {
	i, ok := slices.BinarySearch(g.types, t)
	return i, ok
}

func (g *Graph) relationIndex(r string) (int, bool) {
	return slices.BinarySearchFunc(g.rels, r, func(x relation, r string) int { return cmp.Compare(x.name, r) })
}

func (g *Graph) relation(r string) *relation {
	i, ok := g.relationIndex(r)
	if !ok {
		return nil
	}
	return &g.rels[i]
}
