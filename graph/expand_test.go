package graph

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/golden"
)

// pathsOf expands metapath s (checked against g) from anchors with the
// default options.
func pathsOf(t testing.TB, g *Graph, s string, anchors ...NodeID) []Path {
	t.Helper()
	ps, _ := g.Expand(context.Background(), anchors, mustParse(t, g, s), ExpandOptions{})
	return ps
}

func TestExpandGolden(t *testing.T) {
	g := loadKG(t)
	golden.Run(t, "testdata/expand.txt", func(t *testing.T, c *golden.Case) string {
		lines := strings.Split(c.Input, "\n")
		m, err := ParseMetapath(lines[0])
		if err != nil {
			return describeError(lines[0], err)
		}
		var anchors []NodeID
		for _, l := range lines[1:] {
			typ, name, _ := strings.Cut(l, ": ")
			anchors = append(anchors, mustLookup(t, g, typ, name))
		}
		var opts ExpandOptions
		opts.Hops, _ = strconv.Atoi(c.Args["hops"])
		opts.Limit, _ = strconv.Atoi(c.Args["limit"])
		paths, st := g.Expand(context.Background(), anchors, m, opts)
		var b strings.Builder
		for _, p := range paths {
			checkRealPath(t, g, m, p)
			fmt.Fprintf(&b, "%.4f  %s\n", p.Score, p.Text())
		}
		fmt.Fprintf(&b, "anchors=%d skipped=%d queued=%d expanded=%d paths=%d truncated=%v",
			st.Anchors, st.Skipped, st.Queued, st.Expanded, st.Paths, st.Truncated)
		return b.String()
	})
}

// checkRealPath verifies that every edge of p is in g, that p follows m's
// types and relations, and that no node repeats.
func checkRealPath(t testing.TB, g *Graph, m *Metapath, p Path) {
	t.Helper()
	if len(p.Nodes) != len(p.Relations)+1 || len(p.Reverse) != len(p.Relations) || len(p.Weights) != len(p.Relations) {
		t.Fatalf("malformed path %+v", p)
	}
	if p.Nodes[0].Type != m.Start {
		t.Fatalf("path starts at %s, metapath at %s", p.Nodes[0].Type, m.Start)
	}
	seen := map[NodeID]bool{}
	for i, n := range p.Nodes {
		if seen[n.ID] {
			t.Fatalf("node %s repeats in %s", n.Name, p.Text())
		}
		seen[n.ID] = true
		if g.Node(n.ID) != n {
			t.Fatalf("node %+v is not graph node %+v", n, g.Node(n.ID))
		}
		if i == 0 {
			continue
		}
		if !slices.Contains(g.Neighbors(p.Nodes[i-1].ID, p.Relations[i-1], p.Reverse[i-1]), n.ID) {
			t.Fatalf("no edge %s -%s(reverse=%v)-> %s", p.Nodes[i-1].Name, p.Relations[i-1], p.Reverse[i-1], n.Name)
		}
	}
	// The relations must spell out the steps with counts in range.
	k := 0
	for _, s := range m.Steps {
		n := 0
		for k < len(p.Relations) && p.Relations[k] == s.Relation && p.Reverse[k] == s.Reverse && p.Nodes[k+1].Type == s.To && (s.Max == 0 || n < s.Max) {
			k++
			n++
		}
		if n < s.Min {
			t.Fatalf("path %s does not follow %s", p.Text(), m)
		}
	}
	if k != len(p.Relations) {
		t.Fatalf("path %s has edges beyond %s", p.Text(), m)
	}
}

func TestExpandRepeatedAndReverseSteps(t *testing.T) {
	g := loadKG(t)
	worry := mustLookup(t, g, "证候", "长期忧虑")
	insomnia := mustLookup(t, g, "证候", "失眠多梦")
	ends := func(ps []Path) []string {
		var out []string
		for _, p := range ps {
			out = append(out, fmt.Sprintf("%s@%d", p.Nodes[len(p.Nodes)-1].Name, len(p.Relations)))
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	for _, c := range []struct {
		metapath string
		from     NodeID
		want     []string // end@hops, deduplicated
	}{
		{"证候 -导致*1..4-> 证候", worry, []string{"失眠多梦@4", "心脾两虚@3", "肝气郁结@1", "肝火上扰心神@3", "肝郁脾虚@2", "郁久化火@2"}},
		{"证候 -导致*1..3-> 证候", worry, []string{"心脾两虚@3", "肝气郁结@1", "肝火上扰心神@3", "肝郁脾虚@2", "郁久化火@2"}},
		{"证候 -导致*2..2-> 证候", worry, []string{"肝郁脾虚@2", "郁久化火@2"}},
		{"证候 <-导致*1..4- 证候", insomnia, []string{"心脾两虚@1", "肝气郁结@3", "肝火上扰心神@1", "肝郁脾虚@2", "郁久化火@2", "长期忧虑@4"}},
		{"证候 <-导致*3..3- 证候 -宜用-> 方名", insomnia, []string{"逍遥散@4"}},
	} {
		got := ends(pathsOf(t, g, c.metapath, c.from))
		if !slices.Equal(got, c.want) {
			t.Errorf("%s from %s: got %v, want %v", c.metapath, g.Node(c.from).Name, got, c.want)
		}
	}
	// "*" repeats up to Hops.
	m := mustParse(t, g, "证候 -导致*-> 证候")
	for hops, want := range map[int]int{1: 1, 2: 3, 3: 5, 4: 7} {
		ps, _ := g.Expand(context.Background(), []NodeID{worry}, m, ExpandOptions{Hops: hops})
		if len(ps) != want {
			t.Errorf("hops %d: %d paths, want %d", hops, len(ps), want)
		}
	}
}

func TestExpandNeverRepeatsANode(t *testing.T) {
	g := loadKG(t)
	af := mustLookup(t, g, "Disease", "atrial fibrillation")
	m := mustParse(t, g, "Disease -risk_factor_for*1..4-> Disease")
	ps, _ := g.Expand(context.Background(), []NodeID{af}, m, ExpandOptions{Limit: 1000})
	if len(ps) == 0 {
		t.Fatal("no paths")
	}
	for _, p := range ps {
		checkRealPath(t, g, m, p) // fails on a repeated node
	}
}

func TestExpandLimitIsExactAndAPrefix(t *testing.T) {
	g := loadKG(t)
	m := mustParse(t, g, "方名 -prescription_type-> 处方 -composition-> 中药名 <-composition- 处方 <-prescription_type- 方名")
	var anchors []NodeID
	for _, f := range []string{"荆防败毒散", "逍遥散", "丹栀逍遥散", "龙胆泻肝汤", "酸枣仁汤", "归脾汤"} {
		anchors = append(anchors, mustLookup(t, g, "方名", f))
	}
	all, st := g.Expand(context.Background(), anchors, m, ExpandOptions{Limit: 10000})
	if st.Truncated || len(all) < 30 {
		t.Fatalf("want an untruncated set of at least 30 paths, got %d (%+v)", len(all), st)
	}
	for limit := 1; limit <= len(all)+3; limit++ {
		ps, st := g.Expand(context.Background(), anchors, m, ExpandOptions{Limit: limit})
		if len(ps) != min(limit, len(all)) || st.Paths != len(ps) {
			t.Fatalf("limit %d: %d paths (of %d)", limit, len(ps), len(all))
		}
		for i := range ps {
			if ps[i].Text() != all[i].Text() || ps[i].Score != all[i].Score {
				t.Fatalf("limit %d: path %d is %q, want %q", limit, i, ps[i].Text(), all[i].Text())
			}
		}
	}
	ps, _ := g.Expand(context.Background(), anchors, m, ExpandOptions{})
	if len(ps) != DefaultLimit {
		t.Fatalf("default limit: %d paths", len(ps))
	}
}

func TestExpandStopsEarly(t *testing.T) {
	g := loadKG(t)
	hf := mustLookup(t, g, "Disease", "hypertension")
	m := mustParse(t, g, "Disease -risk_factor_for*1..4-> Disease -has_symptom-> Symptom")
	_, st := g.Expand(context.Background(), []NodeID{hf}, m, ExpandOptions{Limit: 1000, MaxWork: 3})
	if !st.Truncated {
		t.Fatalf("MaxWork 3 did not truncate: %+v", st)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ps, st := g.Expand(ctx, []NodeID{hf}, m, ExpandOptions{})
	if !st.Truncated || len(ps) != 0 {
		t.Fatalf("canceled context: %d paths, %+v", len(ps), st)
	}
}

func TestExpandIgnoresBadAnchorsAndUnknownNames(t *testing.T) {
	g := loadKG(t)
	hf := mustLookup(t, g, "Disease", "heart failure")
	furosemide := mustLookup(t, g, "Drug", "furosemide")
	m := mustParse(t, g, "Drug -treats-> Disease")
	ps, st := g.Expand(context.Background(), []NodeID{hf, furosemide, furosemide, NodeID(1 << 30)}, m, ExpandOptions{})
	if st.Anchors != 1 || st.Skipped != 2 || len(ps) != 2 {
		t.Fatalf("%d paths, %+v", len(ps), st)
	}
	unknown, err := ParseMetapath("Drug -cures-> Disease")
	if err != nil {
		t.Fatal(err)
	}
	if ps, _ := g.Expand(context.Background(), []NodeID{furosemide}, unknown, ExpandOptions{}); len(ps) != 0 {
		t.Fatalf("unknown relation gave %d paths", len(ps))
	}
}

// TestExpandMatchesBruteForce compares Expand with an exhaustive
// enumeration of paths, sorted by the documented order, on random graphs
// and metapaths.
func TestExpandMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for round := range 300 {
		g := Build(nil, randomTriples(rng, 4+rng.IntN(14), 5+rng.IntN(60)))
		m := randomMetapath(rng)
		opts := ExpandOptions{Hops: 1 + rng.IntN(3), Limit: 1 + rng.IntN(25)}
		var anchors []NodeID
		for range 1 + rng.IntN(3) {
			anchors = append(anchors, NodeID(rng.IntN(g.Stats().Entities)))
		}
		got, st := g.Expand(context.Background(), anchors, m, opts)
		want := bruteForce(g, anchors, m, opts.Hops)
		if len(want) > opts.Limit {
			want = want[:opts.Limit]
		}
		if st.Truncated || len(got) != len(want) {
			t.Fatalf("round %d %s: %d paths, brute force %d (%+v)", round, m, len(got), len(want), st)
		}
		for i := range got {
			if signature(got[i]) != signature(want[i]) || got[i].Score != want[i].Score {
				t.Fatalf("round %d %s: path %d is %s (%g), want %s (%g)", round, m, i, signature(got[i]), got[i].Score, signature(want[i]), want[i].Score)
			}
			checkRealPath(t, g, m, got[i])
		}
	}
}

func randomMetapath(rng *rand.Rand) *Metapath {
	types := []string{"A", "B", "C"}
	m := &Metapath{Start: types[rng.IntN(3)]}
	for range 1 + rng.IntN(3) {
		s := Step{Relation: []string{"r", "s", "t"}[rng.IntN(3)], Reverse: rng.IntN(2) == 0, To: types[rng.IntN(3)], Min: 1, Max: 1}
		switch rng.IntN(4) {
		case 0:
			s.Max = 0
		case 1:
			s.Min, s.Max = 1, 2
		case 2:
			s.Min, s.Max = 2, 3
		}
		m.Steps = append(m.Steps, s)
	}
	return m
}

// bruteForce lists every path of m from the anchors, without repeats,
// sorted best first.
func bruteForce(g *Graph, anchors []NodeID, m *Metapath, hops int) []Path {
	seen := map[string]bool{}
	var out []Path
	var walk func(p Path, step, rep int)
	walk = func(p Path, step, rep int) {
		s := m.Steps[step]
		b := s.bounds(hops)
		if step == len(m.Steps)-1 && rep >= b.min {
			if sig := signature(p); !seen[sig] {
				seen[sig] = true
				out = append(out, clonePath(p))
			}
		}
		next := []struct{ step, rep int }{}
		if rep < b.max {
			next = append(next, struct{ step, rep int }{step, rep + 1})
		}
		if rep >= b.min && rep > 0 && step+1 < len(m.Steps) {
			next = append(next, struct{ step, rep int }{step + 1, 1})
		}
		for _, n := range next {
			ns := m.Steps[n.step]
			u := p.Nodes[len(p.Nodes)-1].ID
			for _, v := range g.Neighbors(u, ns.Relation, ns.Reverse) {
				if g.Node(v).Type != ns.To || slices.ContainsFunc(p.Nodes, func(x Node) bool { return x.ID == v }) {
					continue
				}
				du := float64(len(g.Neighbors(u, ns.Relation, ns.Reverse)))
				dv := float64(len(g.Neighbors(v, ns.Relation, !ns.Reverse)))
				q := Path{
					Nodes: append(slices.Clone(p.Nodes), g.Node(v)), Relations: append(slices.Clone(p.Relations), ns.Relation),
					Reverse: append(slices.Clone(p.Reverse), ns.Reverse), Score: p.Score / math.Sqrt(du*dv),
				}
				walk(q, n.step, n.rep)
			}
		}
	}
	for _, a := range dedupe(anchors) {
		if int(a) < g.Stats().Entities && g.Node(a).Type == m.Start {
			walk(Path{Nodes: []Node{g.Node(a)}, Score: 1}, 0, 0)
		}
	}
	slices.SortFunc(out, func(a, b Path) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		ids := func(p Path) []NodeID {
			var s []NodeID
			for _, n := range p.Nodes {
				s = append(s, n.ID)
			}
			return s
		}
		if c := slices.Compare(ids(a), ids(b)); c != 0 {
			return c
		}
		return slices.CompareFunc(edgeKeys(g, a), edgeKeys(g, b), cmp.Compare[int])
	})
	return out
}

func edgeKeys(g *Graph, p Path) []int {
	var k []int
	for i, r := range p.Relations {
		idx, _ := g.relationIndex(r)
		k = append(k, 2*idx)
		if p.Reverse[i] {
			k[i]++
		}
	}
	return k
}

func clonePath(p Path) Path {
	return Path{Nodes: slices.Clone(p.Nodes), Relations: slices.Clone(p.Relations), Reverse: slices.Clone(p.Reverse), Score: p.Score}
}

// signature identifies a walk.
func signature(p Path) string {
	var b strings.Builder
	for i, n := range p.Nodes {
		if i > 0 {
			fmt.Fprintf(&b, " %s/%v ", p.Relations[i-1], p.Reverse[i-1])
		}
		fmt.Fprintf(&b, "%d", n.ID)
	}
	return b.String()
}

// TestExpandStopsInTime: an expansion that would queue millions of
// partial paths (every path of exactly six edges through a graph where
// each node has 200 neighbours, so that one pop pushes 200) stops soon
// after its context's deadline.
func TestExpandStopsInTime(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	var triples []base.Triple
	for i := range 500 {
		for range 200 {
			triples = append(triples, base.Triple{Head: strconv.Itoa(i), HeadType: "A", Relation: "r", Tail: strconv.Itoa(rng.IntN(500)), TailType: "A"})
		}
	}
	g := Build(nil, triples)
	m := mustParse(t, g, "A -r*6..6-> A")
	// The promise is the deadline plus 10 % and 200 ms (a loaded machine
	// may not schedule the search for a while); the search looks at ctx
	// every 4,096 queue operations, about a millisecond.
	const timeout = 50 * time.Millisecond
	const slack = timeout/10 + 200*time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	start := time.Now()
	_, st := g.Expand(ctx, []NodeID{mustLookup(t, g, "A", "0"), mustLookup(t, g, "A", "1")}, m, ExpandOptions{Limit: 1000, MaxWork: 1 << 30})
	if took := time.Since(start); !st.Truncated || took > timeout+slack {
		t.Fatalf("stopped after %v (timeout %v): %+v", took, timeout, st)
	}
}

// TestExpandJoin: with Join, the search goes past the Limit best paths to
// the chains that reach the other anchor, the lowest scored here.
func TestExpandJoin(t *testing.T) {
	g := loadKG(t)
	worry := mustLookup(t, g, "证候", "长期忧虑")
	insomnia := mustLookup(t, g, "证候", "失眠多梦")
	m := mustParse(t, g, "证候 -导致*1..4-> 证候")
	plain, _ := g.Expand(context.Background(), []NodeID{worry, insomnia}, m, ExpandOptions{Limit: 2})
	joined, st := g.Expand(context.Background(), []NodeID{worry, insomnia}, m, ExpandOptions{Limit: 2, Join: true})
	if len(plain) != 2 || plain[0].Joins+plain[1].Joins != 0 {
		t.Fatalf("without Join: %d paths, joins %d %d", len(plain), plain[0].Joins, plain[1].Joins)
	}
	if len(joined) != 4 || st.Joining != 2 || st.Truncated || !slices.EqualFunc(joined[:2], plain, func(a, b Path) bool { return a.Text() == b.Text() }) {
		t.Fatalf("with Join: %d paths, %+v", len(joined), st)
	}
	for _, p := range joined[2:] {
		if p.Joins != 1 || p.Nodes[len(p.Nodes)-1].Name != "失眠多梦" || len(p.Relations) != 4 {
			t.Errorf("joining path %s (joins %d)", p.Text(), p.Joins)
		}
	}
}
