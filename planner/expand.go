package planner

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/medkb/medkb/graph"
)

// graphBoost scales the fusion boost of a chunk that mentions entities of
// the expanded paths: its fused score grows by graphBoost times the best
// fused score times min(mentions, 3)/3. A chunk naming three path entities
// thus gains a quarter of the top score: enough to lift corroborated
// evidence over its neighbours, not enough to bury the best retrieval.
const graphBoost = 0.25

// maxExpandWork bounds the partial paths the expansion of one statement
// queues, over all its metapaths (graph.ExpandOptions.MaxWork): a million
// take about 0.4 s and 40 MB on Hetionet. Each metapath may use an equal
// share of what the metapaths before it left.
const maxExpandWork = 1 << 20

// expand runs the conditional graph expansion: it fires only when at least
// MinEntities anchors of a metapath's start type appear in the query text,
// or in the top fused chunks of a query that names an entity on the
// metapath (see namesMetapathEntity). The fused chunks are those the arms
// retrieved under the statement's WHERE filter, so with WHERE patient =
// "..." no other patient's report is read for anchors. Linking skips a
// name nested in a longer one and a one-character name inside a word
// (graph.Link); the note names what it skipped. Paths are ranked by
// rankPaths, become candidates (tier T3) scored by pathScore, and boost
// the chunks that mention their entities. It returns ctx's error when ctx
// ends.
func (x *execution) expand(ctx context.Context, cands []*candidate) ([]*candidate, error) {
	e := x.p.Expand
	exp := &x.res.Expansion
	if e == nil {
		exp.Reason = "no EXPAND clause"
		return cands, nil
	}
	start := time.Now()
	g := x.p.graph
	if g == nil {
		exp.Reason = "the store has no knowledge graph (ingest triples to enable EXPAND)"
		x.report(opExpand, len(cands), len(cands), start, "not fired: "+exp.Reason)
		return cands, nil
	}
	var all []graph.Path
	var anchorNames, skipped []string
	seen, seenSkip := map[graph.NodeID]bool{}, map[string]bool{}
	fromQuery := map[graph.NodeID]bool{}
	read := []string{strings.ToLower(x.p.Query.Text)}
	work := maxExpandWork
	for i, m := range e.Metapaths {
		texts := []string{x.p.Query.Text}
		named, err := namesMetapathEntity(ctx, g, m, x.p.Query.Text)
		if err != nil {
			return nil, err
		}
		if named {
			for k := 0; k < len(cands) && k < e.TopN; k++ {
				texts = append(texts, cands[k].chunk.Text)
				read = append(read, strings.ToLower(cands[k].chunk.Text))
			}
		}
		var anchors []graph.Anchor
		for j, t := range texts {
			l, err := g.LinkReport(ctx, t, m.Start)
			if err != nil {
				return nil, err
			}
			for _, a := range l.Anchors {
				if !seen[a.ID] {
					seen[a.ID] = true
					anchorNames = append(anchorNames, a.Name)
				}
				fromQuery[a.ID] = fromQuery[a.ID] || j == 0
				anchors = append(anchors, a)
			}
			for _, s := range l.Skipped {
				if note := skipNote(s); !seenSkip[note] {
					seenSkip[note] = true
					skipped = append(skipped, note)
				}
			}
		}
		ids := graph.AnchorIDs(anchors)
		if len(ids) < e.MinEntities {
			continue
		}
		share := work / (len(e.Metapaths) - i)
		if share == 0 {
			exp.Truncated = true
			continue
		}
		paths, st := g.Expand(ctx, ids, m, graph.ExpandOptions{Hops: e.Hops, Limit: e.Limit, MaxWork: share, Join: true})
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		work -= min(work, st.Queued)
		exp.Truncated = exp.Truncated || st.Truncated
		all = append(all, paths...)
	}
	exp.Anchors = append(exp.Anchors, anchorNames...)
	bound := ""
	if exp.Truncated {
		bound = fmt.Sprintf("; stopped at the statement's bound of %d partial paths, so some metapaths may have fewer paths than LIMIT", maxExpandWork)
	}
	graphNote := ""
	if x.p.graphNote != "" {
		graphNote = "; graph " + x.p.graphNote
	}
	skipNotes := ""
	if len(skipped) > 0 {
		skipNotes = "; skipped " + strings.Join(skipped, ", ")
	}
	if len(all) == 0 {
		starts := make([]string, len(e.Metapaths))
		for i, m := range e.Metapaths {
			starts[i] = m.Start
		}
		if len(anchorNames) < e.MinEntities {
			exp.Reason = fmt.Sprintf("found %d entities of type %s; need %d (the query must name an entity of the metapath for the top %d chunks to be searched too)",
				len(anchorNames), strings.Join(starts, "/"), e.MinEntities, e.TopN)
		} else {
			exp.Reason = fmt.Sprintf("anchors %s have no paths along the metapaths%s", strings.Join(anchorNames, ", "), bound)
		}
		x.report(opExpand, len(cands), len(cands), start, "not fired: "+exp.Reason+skipNotes+graphNote)
		return cands, nil
	}
	all = rankPaths(g, all, fromQuery, read)
	if len(all) > e.Limit {
		all = all[:e.Limit]
	}
	exp.Fired = true
	exp.Reason = fmt.Sprintf("%d anchor(s) found: %s%s", len(anchorNames), strings.Join(anchorNames, ", "), bound)
	out, err := x.boost(ctx, cands, all, fromQuery)
	if err != nil {
		return nil, err
	}
	x.report(opExpand, len(cands), len(out), start,
		fmt.Sprintf("fired on %s; %d path(s)%s%s%s", strings.Join(anchorNames, ", "), len(all), bound, skipNotes, graphNote))
	return out, nil
}

// skipNote describes a mention the linker skipped.
func skipNote(s graph.Skip) string {
	switch s.Reason {
	case graph.SkipNested:
		return fmt.Sprintf("%s (nested in %s)", s.Mention, s.By)
	case graph.SkipOverlap:
		return fmt.Sprintf("%s (overlaps %s)", s.Mention, s.By)
	}
	return fmt.Sprintf("%s (one character)", s.Mention)
}

// rankPaths orders the paths of all metapaths: first by how many of the
// query's own anchors a path joins (a chain between two entities the
// query names answers it, however low its degree product: seed 001's
// 长期忧虑 -> ... -> 失眠多梦 at four hops), then by how many of its other
// entities the texts read for anchors (the query and the top chunks, in
// lower case) name, then by score (the degree product), then by how much
// the graph says about the entities it passes through (graph.Degree,
// summed over its nodes after the first: of two chains of equal degree
// product, the one through established entities), then as Expand
// returned them.
func rankPaths(g *graph.Graph, paths []graph.Path, fromQuery map[graph.NodeID]bool, read []string) []graph.Path {
	type ranked struct {
		path                   graph.Path
		joins, named, attested int
	}
	rs := make([]ranked, len(paths))
	for i, p := range paths {
		r := ranked{path: p}
		for k, n := range p.Nodes {
			if k > 0 {
				r.attested += g.Degree(n.ID)
			}
			switch {
			case fromQuery[n.ID]:
				r.joins++
			case utf8.RuneCountInString(n.Name) > 1 && slices.ContainsFunc(read, func(t string) bool { return strings.Contains(t, strings.ToLower(n.Name)) }):
				r.named++
			}
		}
		rs[i] = r
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(b.joins, a.joins), cmp.Compare(b.named, a.named),
			cmp.Compare(b.path.Score, a.path.Score), cmp.Compare(b.attested, a.attested))
	})
	out := make([]graph.Path, len(rs))
	for i, r := range rs {
		out[i] = r.path
	}
	return out
}

// namesMetapathEntity reports whether text names an entity of any type on
// m. Only then are the top fused chunks searched for anchors: the graph is
// consulted when the query is about its entities, never because the tail
// of a vector search happens to mention one.
func namesMetapathEntity(ctx context.Context, g *graph.Graph, m *graph.Metapath, text string) (bool, error) {
	types := []string{m.Start}
	for _, s := range m.Steps {
		types = append(types, s.To)
	}
	for _, t := range types {
		found, err := g.LinkContext(ctx, text, t)
		if err != nil || len(found) > 0 {
			return len(found) > 0, err
		}
	}
	return false, nil
}

// boost adds path candidates and lifts chunks that mention path entities.
// Path text is in the query's language: Chinese when the query has a Han
// character.
func (x *execution) boost(ctx context.Context, cands []*candidate, paths []graph.Path, fromQuery map[graph.NodeID]bool) ([]*candidate, error) {
	names := map[string]bool{}
	chinese := strings.IndexFunc(x.p.Query.Text, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
	x.res.Expansion.Paths = make([]Path, 0, len(paths))
	for _, gp := range paths {
		p := Path{Text: gp.TextIn(chinese), Score: gp.Score, Relations: gp.Relations, Reverse: gp.Reverse}
		for _, n := range gp.Nodes {
			p.Nodes = append(p.Nodes, n.Name)
			p.Types = append(p.Types, n.Type)
			names[strings.ToLower(n.Name)] = true
		}
		x.res.Expansion.Paths = append(x.res.Expansion.Paths, p)
	}
	var fused []float64 // the chunks' fused scores, best first
	for _, c := range cands {
		fused = append(fused, c.Score)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(fused)))
	for i, gp := range paths {
		joins := 0
		for _, n := range gp.Nodes {
			if fromQuery[n.ID] {
				joins++
			}
		}
		cands = append(cands, &candidate{Fused: Fused{Ord: uint64(i + 1), Score: pathScore(i, joins >= 2, fused)},
			path: &x.res.Expansion.Paths[i], named: joins > 0})
	}
	best := 0.0
	if len(fused) > 0 {
		best = fused[0]
	}
	for i, c := range cands {
		if i%checkEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if c.path != nil {
			continue
		}
		lower := strings.ToLower(c.chunk.Text)
		n := 0
		for name := range names {
			if strings.Contains(lower, name) {
				n++
			}
		}
		if n > 0 {
			c.boost = graphBoost * best * float64(min(n, 3)) / 3
		}
	}
	sortCandidates(cands)
	return cands, nil
}

// pathScore is the fused score of the path ranked i-th (from 0, after
// rankPaths): that of the i-th fused chunk, or of the best chunk for a
// path that joins two of the query's anchors. Paths and chunks thus
// alternate in a ranked list (a path first at equal score: its ordinal
// is lower), so that paths reach LIMIT without PACK however many chunks
// match, and a chain between the query's entities sits beside the best
// chunk; graph boosts then lift the chunks that name path entities. On a
// store without chunks the i-th path scores 1/(i+1), a joining one 1.
func pathScore(i int, joins bool, fused []float64) float64 {
	if joins {
		i = 0
	}
	if len(fused) == 0 {
		return 1 / float64(i+1)
	}
	return fused[min(i, len(fused)-1)]
}
