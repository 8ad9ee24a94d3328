package planner

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

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
// metapath (see namesMetapathEntity). Paths become candidates (tier T3)
// and boost the chunks that mention their entities. It returns ctx's
// error when ctx ends.
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
	var anchorNames []string
	seen := map[graph.NodeID]bool{}
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
			}
		}
		var anchors []graph.Anchor
		for _, t := range texts {
			found, err := g.LinkContext(ctx, t, m.Start)
			if err != nil {
				return nil, err
			}
			for _, a := range found {
				if !seen[a.ID] {
					seen[a.ID] = true
					anchorNames = append(anchorNames, a.Name)
				}
				anchors = append(anchors, a)
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
		paths, st := g.Expand(ctx, ids, m, graph.ExpandOptions{Hops: e.Hops, Limit: e.Limit, MaxWork: share})
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
		x.report(opExpand, len(cands), len(cands), start, "not fired: "+exp.Reason+graphNote)
		return cands, nil
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Score > all[j].Score })
	if len(all) > e.Limit {
		all = all[:e.Limit]
	}
	exp.Fired = true
	exp.Reason = fmt.Sprintf("%d anchor(s) found: %s%s", len(anchorNames), strings.Join(anchorNames, ", "), bound)
	out, err := x.boost(ctx, cands, all)
	if err != nil {
		return nil, err
	}
	x.report(opExpand, len(cands), len(out), start,
		fmt.Sprintf("fired on %s; %d path(s)%s%s", strings.Join(anchorNames, ", "), len(all), bound, graphNote))
	return out, nil
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
func (x *execution) boost(ctx context.Context, cands []*candidate, paths []graph.Path) ([]*candidate, error) {
	names := map[string]bool{}
	x.res.Expansion.Paths = make([]Path, 0, len(paths))
	for _, gp := range paths {
		p := Path{Text: gp.Text(), Score: gp.Score, Relations: gp.Relations, Reverse: gp.Reverse}
		for _, n := range gp.Nodes {
			p.Nodes = append(p.Nodes, n.Name)
			p.Types = append(p.Types, n.Type)
			names[strings.ToLower(n.Name)] = true
		}
		x.res.Expansion.Paths = append(x.res.Expansion.Paths, p)
	}
	for i := range x.res.Expansion.Paths {
		cands = append(cands, &candidate{Fused: Fused{Ord: uint64(i + 1)}, path: &x.res.Expansion.Paths[i]})
	}
	best := 0.0
	for _, c := range cands {
		if c.path == nil && c.Score > best {
			best = c.Score
		}
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
