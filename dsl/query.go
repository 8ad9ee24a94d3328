package dsl

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/planner/pack"
)

// Query is a checked statement with every default filled in: what the
// planner reads. Positions are kept where a later stage (binding metapaths
// against the graph, resolving "now") may need to point into the text.
type Query struct {
	Explain, Analyze bool

	Text    string
	TextPos Pos // the query text's opening quote

	// The retrieval arms; an arm is nil when USING names only the other.
	BM25, Vector *Arm

	// Filter is the WHERE clause bound by base.BindCond: tier values
	// read into Cond.Tiers, time values into Cond.Days (a year or month
	// already turned into the day the operator needs), Values in their
	// canonical text. FilterPos[i] is where Filter[i] is written.
	Filter    base.Filter
	FilterPos []Pos

	Gate   *Gate // nil without GATE
	Fuse   Fuse
	Expand *Expand // nil without EXPAND
	Rerank *Rerank // nil without RERANK
	Pack   *Pack   // nil without PACK

	// Limit caps the results; 0 means no cap (the default with PACK,
	// whose budget already bounds the output).
	Limit int

	// Defaulted holds the parameters that took their default, so that
	// EXPLAIN can mark them. Parameters that were written are absent.
	Defaulted map[Param]bool

	// Bindings lists the named parameters ($name) in the order they are
	// written, with the values Bind gave them.
	Bindings []Binding

	src source
}

// Arm is one retrieval arm: take the top K.
type Arm struct {
	K int
	// Scan is how the vector arm scans, ScanF32 or ScanInt8; "" leaves
	// it to the store (ParamVectorScan is then defaulted).
	Scan string
}

// The vector arm's scans.
const (
	ScanF32  = "f32"  // exact, over the float32 vectors
	ScanInt8 = "int8" // over int8 codes, the best candidates rescored exactly
)

// The fusion methods.
const (
	FuseRRF      = "rrf"      // reciprocal rank fusion, parameter K
	FuseWeighted = "weighted" // min-max normalised weighted sum, parameter Alpha
	FuseDocVote  = "docvote"  // chunk-to-document vote over the top M
)

// Fuse is the fusion step. Only the parameter of Method is meaningful; the
// others are zero.
type Fuse struct {
	Method string
	K      float64 // rrf: score = sum 1/(K + rank)
	Alpha  float64 // weighted: Alpha*dense + (1-Alpha)*sparse
	// AlphaAuto is weighted(alpha=auto): the planner chooses alpha per
	// query from its entity density (planner.AutoAlpha); Alpha is unused.
	AlphaAuto bool
	M         int // docvote: chunks per query sentence
	// Docs is docvote's k: the documents kept, each with all its chunks.
	Docs int
	// Votes names docvote's voting arms: VotesBM25, VotesVector or
	// VotesBoth.
	Votes string
}

// Docvote's voting arms.
const (
	VotesBM25   = "bm25"
	VotesVector = "vector"
	VotesBoth   = "both"
)

// Gate is the completeness gate (package internal/gate): the query text's
// sentences are labelled A, B or C and scored; a score at or above
// Theta1 answers without retrieval, below Theta2 retrieves and warns
// that critical information is sparse.
type Gate struct {
	Theta1, Theta2 float64
}

// Expand is conditional graph expansion.
type Expand struct {
	Metapaths   []Metapath
	Hops        int // repetitions allowed for * steps
	Limit       int // paths kept
	MinEntities int // expand only when at least this many entities are found
}

// Metapath is one metapath template, opaque here: the graph package parses
// Text. Pos is its opening quote; Query.StringPos maps an offset inside
// Text back to the statement.
type Metapath struct {
	Text string
	Pos  Pos
}

// Rerank sends the text of the Top candidates, with the query text, to
// the reranker the store or process configures, and reorders them by its
// scores.
type Rerank struct {
	Top int
}

// Pack is the EBM-Pack stage.
type Pack struct {
	Budget  int        // tokens
	Kmin    int        // per-tier quota
	Weights [4]float64 // tier weights T1..T4, non-increasing, all above 0
	Lambda  float64    // time decay per year
	Epsilon float64    // fidelity bonus of the compressed state
	Floor   float64    // similarity floor: Sim = (1 - Floor) * cosine + Floor * tokens / 20
	// Reliability w scales utility by 1 - w + w * the block's evidence
	// reliability (docs/reliability.md); 0 is off.
	Reliability float64
	Strategy    pack.Strategy
	Now         base.Day // the reference day of time decay; base.NoDay for the time of execution
	NowPos      Pos      // where now was written (zero when defaulted)
}

// Param names a defaultable parameter in Query.Defaulted.
type Param string

// The defaultable parameters.
const (
	ParamUsing       Param = "using"            // USING omitted: both arms
	ParamBM25K       Param = "bm25.k"           // 50
	ParamVectorK     Param = "vector.k"         // 50
	ParamVectorScan  Param = "vector.scan"      // the store's: f32 unless it was built with int8
	ParamTheta1      Param = "gate.theta1"      // 0.42 (gate.DefaultTheta1)
	ParamTheta2      Param = "gate.theta2"      // 0.14 (gate.DefaultTheta2)
	ParamFuse        Param = "fuse"             // FUSE omitted: rrf
	ParamFuseK       Param = "fuse.k"           // 60
	ParamFuseAlpha   Param = "fuse.alpha"       // 0.5
	ParamFuseM       Param = "fuse.m"           // 5
	ParamFuseDocs    Param = "fuse.docs"        // 10
	ParamFuseVotes   Param = "fuse.votes"       // bm25 (vector when USING has only vector)
	ParamHops        Param = "expand.hops"      // 2
	ParamExpandLimit Param = "expand.limit"     // 20
	ParamMinEntities Param = "expand.when"      // 1
	ParamRerankTop   Param = "rerank.top"       // 20
	ParamKmin        Param = "pack.kmin"        // 1
	ParamWeights     Param = "pack.weights"     // (2.5, 2.5, 1, 1)
	ParamLambda      Param = "pack.lambda"      // 0.02 per year
	ParamEpsilon     Param = "pack.epsilon"     // 0
	ParamFloor       Param = "pack.floor"       // 0.5
	ParamReliability Param = "pack.reliability" // 0, off
	ParamStrategy    Param = "pack.strategy"    // ebm
	ParamNow         Param = "pack.now"         // time of execution
	ParamLimit       Param = "limit"            // 10, or none with PACK
)

// ErrorAt builds a positioned error against the statement's text, for
// stages after Check (binding metapaths, resolving fields).
func (q *Query) ErrorAt(pos Pos, format string, args ...any) *Error {
	return q.src.errorf(pos, format, args...)
}

// StringPos returns the position in the statement of the rune runeOffset
// of the value of the string literal at lit (a Metapath.Pos, say), taking
// escapes into account.
func (q *Query) StringPos(lit Pos, runeOffset int) Pos {
	return q.src.stringPos(lit, runeOffset)
}

// String dumps q, one stage a line, marking defaulted parameters with *.
func (q *Query) String() string {
	var b strings.Builder
	line := func(stage, format string, args ...any) {
		fmt.Fprintf(&b, "%-8s %s\n", stage, fmt.Sprintf(format, args...))
	}
	if q.Explain {
		line("explain", "analyze=%t", q.Analyze)
	}
	if len(q.Bindings) > 0 {
		line("params", "%s", describeBindings(q.Bindings))
	}
	line("text", "%s", quote(q.Text))
	line("bm25", "%s", q.arm(q.BM25, ParamBM25K))
	line("vector", "%s", q.arm(q.Vector, ParamVectorK))
	line("filter", "%s", describeFilter(q.Filter))
	if g := q.Gate; g != nil {
		line("gate", "theta1=%s%s theta2=%s%s", fmtFloat(g.Theta1), q.mark(ParamTheta1), fmtFloat(g.Theta2), q.mark(ParamTheta2))
	}
	line("fuse", "%s", q.describeFuse())
	line("expand", "%s", q.describeExpand())
	if r := q.Rerank; r != nil {
		line("rerank", "top=%d%s", r.Top, q.mark(ParamRerankTop))
	}
	line("pack", "%s", q.describePack())
	limit := strconv.Itoa(q.Limit)
	if q.Limit == 0 {
		limit = "none"
	}
	line("limit", "%s", limit+q.mark(ParamLimit))
	return strings.TrimSuffix(b.String(), "\n")
}

// mark returns "*" when p was defaulted.
func (q *Query) mark(p Param) string {
	if q.Defaulted[p] {
		return "*"
	}
	return ""
}

func (q *Query) arm(a *Arm, k Param) string {
	if a == nil {
		return "off"
	}
	s := fmt.Sprintf("on%s k=%d%s", q.mark(ParamUsing), a.K, q.mark(k))
	if k == ParamVectorK {
		s += " scan=" + cmp.Or(a.Scan, "store") + q.mark(ParamVectorScan)
	}
	return s
}

func describeFilter(f base.Filter) string {
	if len(f) == 0 {
		return "none"
	}
	conds := make([]string, len(f))
	for i, c := range f {
		vals := make([]string, len(c.Values))
		for j, v := range c.Values {
			vals[j] = quote(v)
		}
		if c.Op == base.OpIn {
			conds[i] = fmt.Sprintf("%s IN (%s)", c.Field, strings.Join(vals, ", "))
		} else {
			conds[i] = fmt.Sprintf("%s %s %s", c.Field, c.Op, strings.Join(vals, ", "))
		}
	}
	return strings.Join(conds, " AND ")
}

func (q *Query) describeFuse() string {
	f := q.Fuse
	switch f.Method {
	case FuseRRF:
		return fmt.Sprintf("rrf%s k=%s%s", q.mark(ParamFuse), fmtFloat(f.K), q.mark(ParamFuseK))
	case FuseWeighted:
		if f.AlphaAuto {
			return "weighted alpha=auto"
		}
		return fmt.Sprintf("weighted alpha=%s%s", fmtFloat(f.Alpha), q.mark(ParamFuseAlpha))
	}
	return fmt.Sprintf("%s m=%d%s k=%d%s votes=%s%s", f.Method, f.M, q.mark(ParamFuseM), f.Docs, q.mark(ParamFuseDocs), f.Votes, q.mark(ParamFuseVotes))
}

func (q *Query) describeExpand() string {
	e := q.Expand
	if e == nil {
		return "none"
	}
	paths := make([]string, len(e.Metapaths))
	for i, m := range e.Metapaths {
		paths[i] = quote(m.Text)
	}
	return fmt.Sprintf("metapaths %s hops=%d%s limit=%d%s min_entities=%d%s",
		strings.Join(paths, ", "), e.Hops, q.mark(ParamHops), e.Limit, q.mark(ParamExpandLimit),
		e.MinEntities, q.mark(ParamMinEntities))
}

func (q *Query) describePack() string {
	p := q.Pack
	if p == nil {
		return "none"
	}
	w := make([]string, len(p.Weights))
	for i, x := range p.Weights {
		w[i] = fmtFloat(x)
	}
	now := p.Now.String()
	if p.Now == base.NoDay {
		now = "(execution time)"
	}
	// The reliability weight is shown only when the statement gives it,
	// so that plans of statements without it read as they always did.
	reliab := ""
	if !q.Defaulted[ParamReliability] {
		reliab = " reliability=" + fmtFloat(p.Reliability)
	}
	return fmt.Sprintf("budget=%d kmin=%d%s weights=(%s)%s lambda=%s%s epsilon=%s%s floor=%s%s%s strategy=%s%s now=%s%s",
		p.Budget, p.Kmin, q.mark(ParamKmin), strings.Join(w, ", "), q.mark(ParamWeights),
		fmtFloat(p.Lambda), q.mark(ParamLambda), fmtFloat(p.Epsilon), q.mark(ParamEpsilon),
		fmtFloat(p.Floor), q.mark(ParamFloor), reliab,
		p.Strategy, q.mark(ParamStrategy), now, q.mark(ParamNow))
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// describeBindings lists parameters as $name = value, comma-separated.
func describeBindings(bs []Binding) string {
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = b.String()
	}
	return strings.Join(parts, ", ")
}
