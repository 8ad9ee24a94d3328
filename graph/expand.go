package graph

import (
	"context"
	"math"
	"slices"
)

// Defaults of ExpandOptions.
const (
	DefaultHops    = 2
	DefaultLimit   = 20
	DefaultMaxWork = 1 << 20
)

// ExpandOptions bounds an expansion. Zero fields take the defaults.
type ExpandOptions struct {
	Hops    int // repeat bound of "*" steps without a range; 0 means DefaultHops, capped at MaxRepeat
	Limit   int // most paths returned; 0 means DefaultLimit
	MaxWork int // most partial paths queued before giving up; 0 means DefaultMaxWork
	// Join asks for the paths that join two anchors as well: after the
	// Limit best paths, the search goes on, for at most JoinWork more
	// partial paths and within MaxWork, to collect up to Limit paths
	// that reach another anchor (Path.Joins > 0), however low they score.
	Join bool
}

// JoinWork bounds the partial paths queued, once the Limit best paths are
// found, to find paths that join two anchors (ExpandOptions.Join).
const JoinWork = 1 << 16

// ExpandStats reports what an expansion did.
type ExpandStats struct {
	Anchors   int  // distinct anchors of the metapath's start type
	Skipped   int  // anchors of another type, ignored
	Queued    int  // partial paths queued
	Expanded  int  // partial paths taken off the queue
	Paths     int  // paths returned
	Joining   int  // of them, paths that join two anchors
	Truncated bool // stopped by MaxWork or ctx before Limit paths were certain
}

// Path is one walk that follows a metapath. Relations[i] joins Nodes[i]
// and Nodes[i+1]; Reverse[i] is true when that edge points from Nodes[i+1]
// to Nodes[i]; Weights[i] is its weight (0 when not given).
type Path struct {
	Nodes     []Node
	Relations []string
	Reverse   []bool
	Weights   []float64
	Score     float64
	Joins     int // anchors on the path after its first node
}

// Expand returns the best paths that follow m from the anchors, at most
// opts.Limit of them, best first.
//
// A path's score is its degree product, the path-degree product of
// Hetionet's DWPC with damping 0.5: the product over its edges u->v of
// (deg(u)·deg'(v))^-0.5, where deg(u) counts u's edges of that relation in
// the direction walked and deg'(v) v's edges of it in the other direction.
// Paths through hubs score low; a path through specific links scores high.
// Ties are broken by the node-id sequence (that is, by type then name,
// position by position), then by the relations.
//
// The search is best-first: every edge multiplies the score by at most 1,
// so partial paths come off the queue in final order and the search stops
// as soon as Limit paths are complete; it never enumerates the paths it
// does not return. No node appears twice in a path. Anchors of a type
// other than m's start type are skipped. An m that does not fit the graph
// (see CheckMetapath) gives no paths.
//
// Path.Joins counts the anchors a path reaches after its first node. With
// opts.Join, the search goes on past the Limit best paths to collect up
// to Limit paths that join two anchors (bounded by JoinWork), which come
// after the best, still in score order: a chain between two entities
// the query names is wanted however many hubs it passes.
func (g *Graph) Expand(ctx context.Context, anchors []NodeID, m *Metapath, opts ExpandOptions) ([]Path, ExpandStats) {
	opts = opts.withDefaults()
	var st ExpandStats
	plan, ok := g.plan(m, opts.Hops)
	if !ok {
		return nil, st
	}
	x := &expansion{g: g, plan: plan, ctx: ctx, opts: opts, stats: &st, anchors: map[NodeID]bool{}}
	for _, a := range dedupe(anchors) {
		x.anchors[a] = true
		if int(a) >= len(g.names) || g.nodeType[a] != plan.start {
			st.Skipped++
			continue
		}
		st.Anchors++
		x.push(partial{parent: -1, node: a, score: 1})
	}
	paths := x.run()
	st.Paths = len(paths)
	for _, p := range paths {
		if p.Joins > 0 {
			st.Joining++
		}
	}
	return paths, st
}

func (o ExpandOptions) withDefaults() ExpandOptions {
	if o.Hops <= 0 {
		o.Hops = DefaultHops
	}
	o.Hops = min(o.Hops, MaxRepeat)
	if o.Limit <= 0 {
		o.Limit = DefaultLimit
	}
	if o.MaxWork <= 0 {
		o.MaxWork = DefaultMaxWork
	}
	return o
}

func dedupe(ids []NodeID) []NodeID {
	out := make([]NodeID, 0, len(ids))
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// expandPlan is a metapath resolved against a graph.
type expandPlan struct {
	start uint16
	steps []planStep
}

type planStep struct {
	rel      *relation
	relIndex int
	reverse  bool
	to       uint16
	repeat   repeatBounds
}

// plan resolves m's names; ok is false when a name is unknown.
func (g *Graph) plan(m *Metapath, hops int) (expandPlan, bool) {
	start, ok := g.typeIndex(m.Start)
	if !ok || len(m.Steps) == 0 {
		return expandPlan{}, false
	}
	p := expandPlan{start: uint16(start)}
	for _, s := range m.Steps {
		r, okR := g.relationIndex(s.Relation)
		to, okT := g.typeIndex(s.To)
		if !okR || !okT {
			return expandPlan{}, false
		}
		p.steps = append(p.steps, planStep{
			rel: &g.rels[r], relIndex: r, reverse: s.Reverse,
			to: uint16(to), repeat: s.bounds(hops),
		})
	}
	return p, true
}

// partial is a path prefix, stored in the expansion's arena: parent is the
// arena index of the prefix one edge shorter (-1 for an anchor). The last
// edge belongs to plan step `step`, and is the rep-th edge of that step
// (rep is 0 only for an anchor, whose step is 0).
type partial struct {
	parent int32
	node   NodeID
	step   int16
	rep    int16
	depth  int16
	score  float64
	weight float32
}

// expansion is the state of one Expand call.
type expansion struct {
	g     *Graph
	plan  expandPlan
	ctx   context.Context
	opts  ExpandOptions
	stats *ExpandStats
	// anchors are all the anchors given, of any type: a path that reaches
	// one joins two.
	anchors map[NodeID]bool
	arena   []partial
	queue   []int32 // binary heap of arena indices, best first
	// nextCheck is the count of queue operations (pops and pushes) at
	// which run looks at ctx again.
	nextCheck int
}

// checkEvery is how many queue operations run does between looks at ctx,
// about a millisecond's work: one pop of a hub can push thousands.
const checkEvery = 4096

func (x *expansion) run() []Path {
	var paths []Path
	joining, best := 0, 0
	joinStop := -1 // Queued at which the search for joining paths stops
	for len(x.queue) > 0 {
		if best >= x.opts.Limit {
			if !x.opts.Join || joining >= x.opts.Limit || len(x.anchors) < 2 {
				break
			}
			if joinStop < 0 {
				joinStop = x.stats.Queued + JoinWork
			}
			if x.stats.Queued > joinStop {
				break
			}
		}
		if x.stats.Queued > x.opts.MaxWork {
			x.stats.Truncated = best < x.opts.Limit
			break
		}
		if ops := x.stats.Expanded + x.stats.Queued; ops >= x.nextCheck {
			x.nextCheck = ops + checkEvery
			if x.ctx.Err() != nil {
				x.stats.Truncated = best < x.opts.Limit
				break
			}
		}
		i := x.pop()
		x.stats.Expanded++
		p := x.arena[i]
		last := len(x.plan.steps) - 1
		if int(p.step) == last && int(p.rep) >= x.plan.steps[last].repeat.min {
			path := x.path(i)
			if (best < x.opts.Limit || path.Joins > 0) && (len(paths) == 0 || !samePath(paths[len(paths)-1], path)) {
				paths = append(paths, path)
				if path.Joins > 0 {
					joining++
				}
				if best < x.opts.Limit {
					best++
				}
			}
		}
		if int(p.rep) < x.plan.steps[p.step].repeat.max {
			x.extend(i, int(p.step), p.rep+1)
		}
		if p.rep > 0 && int(p.rep) >= x.plan.steps[p.step].repeat.min && int(p.step) < last {
			x.extend(i, int(p.step)+1, 1)
		}
	}
	return paths
}

// extend queues every one-edge extension of arena[i] along plan step s,
// as the rep-th edge of that step.
func (x *expansion) extend(i int32, s int, rep int16) {
	p := x.arena[i]
	step := &x.plan.steps[s]
	fwd, back := &step.rel.out, &step.rel.in
	if step.reverse {
		fwd, back = back, fwd
	}
	targets, weights := fwd.neighbours(p.node)
	lo, hi := x.typeRange(targets, step.to)
	degU := float64(len(targets))
	for k := lo; k < hi; k++ {
		v := targets[k]
		if x.onPath(i, v) {
			continue
		}
		c := partial{
			parent: i, node: v, step: int16(s), rep: rep, depth: p.depth + 1,
			score: p.score / math.Sqrt(degU*float64(back.degree(v))),
		}
		if weights != nil {
			c.weight = weights[k]
		}
		x.push(c)
	}
}

// typeRange narrows sorted targets to those of type t: ids of one type
// are contiguous.
func (x *expansion) typeRange(targets []NodeID, t uint16) (int, int) {
	first, end := x.g.typeStart[t], x.g.typeStart[t+1]
	lo, _ := slices.BinarySearch(targets, first)
	hi, _ := slices.BinarySearch(targets, end)
	return lo, hi
}

// onPath reports whether node v is already on the path ending at arena[i].
func (x *expansion) onPath(i int32, v NodeID) bool {
	for ; i >= 0; i = x.arena[i].parent {
		if x.arena[i].node == v {
			return true
		}
	}
	return false
}

// path materialises the path ending at arena[i].
func (x *expansion) path(i int32) Path {
	p := x.arena[i]
	n := int(p.depth)
	out := Path{
		Nodes: make([]Node, n+1), Relations: make([]string, n),
		Reverse: make([]bool, n), Weights: make([]float64, n), Score: p.score,
	}
	for k := n; k >= 0; k-- {
		q := x.arena[i]
		out.Nodes[k] = x.g.Node(q.node)
		if k > 0 && x.anchors[q.node] {
			out.Joins++
		}
		if k > 0 {
			step := x.plan.steps[q.step]
			out.Relations[k-1] = step.rel.name
			out.Reverse[k-1] = step.reverse
			out.Weights[k-1] = float64(q.weight)
		}
		i = q.parent
	}
	return out
}

// samePath reports whether a and b are the same walk (a path can be found
// twice when repeated steps split its edges differently).
func samePath(a, b Path) bool {
	return a.Score == b.Score && slices.Equal(a.Nodes, b.Nodes) &&
		slices.Equal(a.Relations, b.Relations) && slices.Equal(a.Reverse, b.Reverse)
}
