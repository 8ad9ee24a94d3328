package planner

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/medkb/medkb/dsl"
	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/planner/pack"
)

// Plan is the operator tree of one query as plain values: Limit over Pack
// over Expand over Fuse over the retrieval arms. Absent stages are nil.
// Building a Plan does no I/O; Execute runs it.
type Plan struct {
	Query  *dsl.Query
	Arms   []RetrieveNode
	Gate   *GateNode // nil without GATE
	Fuse   FuseNode
	Expand *ExpandNode
	Rerank *RerankNode // nil without RERANK
	Pack   *PackNode
	Limit  int // 0: no limit
	// Rules lists the rewrite rules that fired while planning, in order.
	Rules []string
	graph *graph.Graph // what EXPAND was bound against
	// graphNote says how the graph was opened (Env.Graph), for EXPLAIN
	// ANALYZE.
	graphNote string
}

// RetrieveNode is one retrieval arm with the filter pushed into it.
type RetrieveNode struct {
	Arm string // "bm25" or "vector"
	K   int
	// Scan is the vector arm's scan, dsl.ScanF32 or dsl.ScanInt8: the
	// query's, or else the store's (Binding.VectorScan).
	Scan   string
	Filter base.Filter // conditions the index evaluates during retrieval
	// Residual are conditions the index cannot evaluate (meta.KEY in the
	// vector slab): applied after retrieval on the documents, with
	// over-fetching.
	Residual base.Filter
	// On names the Backend that searches, "" for the embedded one.
	On string
}

// fetch is how many hits the arm retrieves: K, or more when a residual
// filter will drop some.
func (a RetrieveNode) fetch() int {
	if len(a.Residual) > 0 {
		return min(a.K*residualFactor, maxFetch)
	}
	return a.K
}

// FuseNode combines the arms.
type FuseNode struct {
	Method string // dsl.FuseRRF, dsl.FuseWeighted, dsl.FuseDocVote
	K      float64
	Alpha  float64
	// AlphaAuto is weighted(alpha=auto): alpha is chosen per query at
	// execution (AutoAlpha) and EXPLAIN ANALYZE reports it.
	AlphaAuto bool
	// docvote: M chunks per sentence, the top Docs documents kept,
	// Votes the voting arms (dsl.VotesBM25, VotesVector, VotesBoth).
	M     int
	Docs  int
	Votes string
	// VectorWeight is the vector arm's RRF weight (BM25's is 1), from the
	// embedder: see embed.FusionWeight.
	VectorWeight float64
}

// ExpandNode is the conditional graph expansion.
type ExpandNode struct {
	Metapaths   []*graph.Metapath
	Texts       []string
	Hops, Limit int
	MinEntities int
	// TopN is how many fused chunks are scanned for anchors besides the
	// query text.
	TopN int
}

// PackNode is the packer with every parameter bound.
type PackNode struct {
	Params  pack.Params
	NowText string // "" when now is the time of execution
}

// docVoteTieK is the RRF constant docvote uses to break ties between
// chunks with the same number of votes.
const docVoteTieK = 60

// Anchor scan depth and over-fetch factor for residual filters.
const (
	anchorTopN     = 5
	residualFactor = 10
)

// Rewrite rules, named so EXPLAIN and tests can say which fired.
const (
	RulePushFilterBM25   = "push-filter-into-bm25"
	RulePushFilterVector = "push-filter-into-vector-scan"
	RuleResidualMeta     = "post-filter-meta-on-vector-arm"
	RuleDocVoteSentences = "docvote-retrieves-per-sentence"
	// RuleStoreKmin: without WHERE patient = "...", kmin defaults to 0.
	RuleStoreKmin = "no-tier-quota-across-the-store"
)

// Binding is what a plan is bound to besides its query: the store's
// graph (nil without one; only EXPAND needs it) with a note on how it was
// opened, for EXPLAIN ANALYZE, and the vector arm's RRF weight (see
// Env.VectorWeight; 0 means 1).
type Binding struct {
	Graph        *graph.Graph
	GraphNote    string
	VectorWeight float64
	// VectorScan is the vector arm's scan when the query names none:
	// dsl.ScanInt8 for a store that keeps int8 codes, else dsl.ScanF32
	// ("" counts as that).
	VectorScan string
	// Backend is the Backend that retrieves: its Name, and whether it
	// evaluates meta.KEY conditions in the vector arm.
	Backend    string
	PushesMeta bool
}

// Build binds a checked query and returns its finished plan; nothing is
// set on it afterwards. Errors are *dsl.Error positioned in the statement.
func Build(q *dsl.Query, b Binding) (*Plan, error) {
	g := b.Graph
	p := &Plan{Query: q, Limit: q.Limit, graph: g, graphNote: b.GraphNote,
		Fuse: FuseNode{Method: q.Fuse.Method, K: q.Fuse.K, Alpha: q.Fuse.Alpha, AlphaAuto: q.Fuse.AlphaAuto, M: q.Fuse.M,
			Docs: q.Fuse.Docs, Votes: q.Fuse.Votes, VectorWeight: b.VectorWeight}}
	if p.Fuse.VectorWeight <= 0 {
		p.Fuse.VectorWeight = 1
	}
	if q.Gate != nil {
		p.Gate = &GateNode{Theta1: q.Gate.Theta1, Theta2: q.Gate.Theta2}
	}
	if q.BM25 != nil {
		p.Arms = append(p.Arms, RetrieveNode{Arm: "bm25", K: q.BM25.K, Filter: q.Filter, On: b.Backend})
		if len(q.Filter) > 0 {
			p.Rules = append(p.Rules, RulePushFilterBM25)
		}
	}
	if q.Vector != nil {
		n := RetrieveNode{Arm: "vector", K: q.Vector.K, Scan: cmp.Or(q.Vector.Scan, b.VectorScan, dsl.ScanF32), On: b.Backend}
		if n.Filter, n.Residual = splitForSlots(q.Filter); b.PushesMeta {
			n.Filter, n.Residual = q.Filter, nil
		}
		if len(n.Filter) > 0 {
			p.Rules = append(p.Rules, RulePushFilterVector)
		}
		if len(n.Residual) > 0 {
			p.Rules = append(p.Rules, RuleResidualMeta)
		}
		p.Arms = append(p.Arms, n)
	}
	if q.Fuse.Method == dsl.FuseDocVote {
		p.Rules = append(p.Rules, RuleDocVoteSentences)
		p.Fuse.K = docVoteTieK
	}
	if q.Expand != nil {
		e, err := bindExpand(q, g)
		if err != nil {
			return nil, err
		}
		p.Expand = e
	}
	if q.Rerank != nil {
		p.Rerank = &RerankNode{Top: q.Rerank.Top}
	}
	if q.Pack != nil {
		n := bindPack(q)
		p.Pack = n
		if q.Defaulted[dsl.ParamKmin] && !p.onePatient() {
			// The tier quota guarantees each tier of one record a place
			// (the paper packs one case). Across the store the candidates
			// come from many records and publications, and a quota would
			// pull in a T1 sentence of an unrelated study because T1 is
			// otherwise missing; so kmin defaults to 0 there.
			n.Params.Kmin = 0
			p.Rules = append(p.Rules, RuleStoreKmin)
		}
	}
	return p, nil
}

func bindExpand(q *dsl.Query, g *graph.Graph) (*ExpandNode, error) {
	e := &ExpandNode{Hops: q.Expand.Hops, Limit: q.Expand.Limit, MinEntities: q.Expand.MinEntities, TopN: anchorTopN}
	for _, mp := range q.Expand.Metapaths {
		m, err := graph.ParseMetapath(mp.Text)
		if err == nil && g != nil {
			err = g.CheckMetapath(m)
		}
		if err != nil {
			var me *graph.MetapathError
			if errors.As(err, &me) {
				return nil, q.ErrorAt(q.StringPos(mp.Pos, me.Offset), "metapath: %s", me.Msg)
			}
			return nil, q.ErrorAt(mp.Pos, "metapath: %v", err)
		}
		e.Metapaths = append(e.Metapaths, m)
		e.Texts = append(e.Texts, m.String())
	}
	return e, nil
}

func bindPack(q *dsl.Query) *PackNode {
	qp := q.Pack
	return &PackNode{NowText: qp.Now.String(), Params: pack.Params{Budget: qp.Budget, Kmin: qp.Kmin, Weights: qp.Weights,
		Lambda: qp.Lambda, Epsilon: qp.Epsilon, SimFloor: qp.Floor, Reliability: qp.Reliability, RelevancePower: pack.QueryRelevancePower, Strategy: qp.Strategy, Now: qp.Now}}
}

// describe formats a filter for EXPLAIN.
func describe(f base.Filter) string {
	s := ""
	for i, c := range f {
		if i > 0 {
			s += " AND "
		}
		if c.Op == base.OpIn {
			s += fmt.Sprintf("%s IN %v", c.Field, c.Values)
		} else {
			s += fmt.Sprintf("%s %s %q", c.Field, c.Op, c.Values[0])
		}
	}
	return s
}
