package planner

import (
	"fmt"
	"strings"

	"github.com/medkb/medkb/dsl"
	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/internal/gate"
)

// Operator names, shared by EXPLAIN and EXPLAIN ANALYZE reports.
const (
	opLimit = "Limit"
	opPack  = "Pack"
	// opDedup drops near-duplicates and flags outliers before Pack.
	opDedup  = "Dedup"
	opExpand = "Expand"
	// opRelevance is the relevance stage (judge), between Expand and Pack.
	opRelevance = "Relevance"
	// opRerank is the reranker (RERANK), between Relevance and Dedup.
	opRerank = "Rerank"
	opFuse   = "Fuse"
	// opGate is the completeness gate, before retrieval.
	opGate   = "Gate"
	opBM25   = "Retrieve bm25"
	opVector = "Retrieve vector"
)

// Explain renders the plan as an indented operator tree with every
// parameter; "*" marks a parameter that took its default. With reports
// (from EXPLAIN ANALYZE) each operator also shows rows in/out and time.
func (p *Plan) Explain(reports []OpReport) string {
	rep := map[string]OpReport{}
	for _, r := range reports {
		rep[r.Op] = r
	}
	d := p.Query.Defaulted
	mark := func(param dsl.Param, v string) string {
		if d[param] {
			return v + "*"
		}
		return v
	}
	type line struct {
		depth int
		op    string
		text  string
	}
	var lines []line
	depth := 0
	add := func(op, text string) {
		lines = append(lines, line{depth, op, text})
		depth++
	}
	if p.Limit > 0 {
		add(opLimit, fmt.Sprintf("Limit n=%s", mark(dsl.ParamLimit, fmt.Sprint(p.Limit))))
	}
	if n := p.Pack; n != nil {
		now := n.NowText
		if now == "" {
			now = "now"
		}
		w := n.Params.Weights
		// The reliability weight shows only when the statement gives it,
		// so that plans without it read as they always did.
		reliab := ""
		if !d[dsl.ParamReliability] {
			reliab = fmt.Sprintf(" reliability=%g", n.Params.Reliability)
		}
		add(opPack, fmt.Sprintf("Pack strategy=%s budget=%d kmin=%s weights=%s lambda=%s epsilon=%s floor=%s%s relevance-power=%g now=%s",
			mark(dsl.ParamStrategy, n.Params.Strategy.String()), n.Params.Budget,
			mark(dsl.ParamKmin, fmt.Sprint(n.Params.Kmin)),
			mark(dsl.ParamWeights, fmt.Sprintf("(%g, %g, %g, %g)", w[0], w[1], w[2], w[3])),
			mark(dsl.ParamLambda, fmt.Sprint(n.Params.Lambda)), mark(dsl.ParamEpsilon, fmt.Sprint(n.Params.Epsilon)),
			mark(dsl.ParamFloor, fmt.Sprint(n.Params.SimFloor)), reliab, n.Params.RelevancePower,
			mark(dsl.ParamNow, now)))
	}
	if p.Pack != nil {
		add(opDedup, dedupExplain())
	}
	if r := p.Rerank; r != nil {
		add(opRerank, fmt.Sprintf("Rerank top=%s (the top chunks' text to the configured reranker; reranked first by its score, then graph paths and the rest in order)",
			mark(dsl.ParamRerankTop, fmt.Sprint(r.Top))))
	}
	add(opRelevance, fmt.Sprintf("Relevance evidence>=%g on-topic>=%g (coverage of the topic by idf, cosine x%g, graph)",
		minEvidence, onTopic, p.Fuse.VectorWeight))
	if e := p.Expand; e != nil {
		add(opExpand, fmt.Sprintf("Expand metapaths=[%s] hops=%s limit=%s when entities>=%s anchors-from=query+top%d",
			quoteAll(e.Texts), mark(dsl.ParamHops, fmt.Sprint(e.Hops)), mark(dsl.ParamExpandLimit, fmt.Sprint(e.Limit)),
			mark(dsl.ParamMinEntities, fmt.Sprint(e.MinEntities)), e.TopN))
	}
	f := p.Fuse
	switch f.Method {
	case dsl.FuseRRF:
		add(opFuse, fmt.Sprintf("Fuse %s k=%s arm-weights=(bm25 1, vector %g)", mark(dsl.ParamFuse, f.Method),
			mark(dsl.ParamFuseK, fmt.Sprint(f.K)), f.VectorWeight))
	case dsl.FuseWeighted:
		if f.AlphaAuto {
			add(opFuse, fmt.Sprintf("Fuse weighted alpha=auto (alpha*N(vector) + (1-alpha)*N(bm25), min-max; alpha = clamp(%g - %g*entity density) to a tenth)", autoAlphaA, autoAlphaB))
			break
		}
		add(opFuse, fmt.Sprintf("Fuse weighted alpha=%s (alpha*N(vector) + (1-alpha)*N(bm25), min-max)", mark(dsl.ParamFuseAlpha, fmt.Sprint(f.Alpha))))
	case dsl.FuseDocVote:
		add(opFuse, fmt.Sprintf("Fuse docvote m=%s k=%s votes=%s (each A/B sentence of the query retrieves m chunks per voting arm; a document scores its distinct chunks retrieved, ties by rrf k=%g with vector weight %g; the top k documents, each with all its chunks)",
			mark(dsl.ParamFuseM, fmt.Sprint(f.M)), mark(dsl.ParamFuseDocs, fmt.Sprint(f.Docs)), mark(dsl.ParamFuseVotes, f.Votes), f.K, f.VectorWeight))
	}
	if g := p.Gate; g != nil {
		add(opGate, fmt.Sprintf("Gate theta1=%s theta2=%s (sentences labelled A/B/C by rules; I = sum(%g A + %g B + %g C) / (%g max(n, %d)); I >= theta1 answers without retrieval unless a patient's record is read, I < theta2 warns)",
			mark(dsl.ParamTheta1, fmt.Sprint(g.Theta1)), mark(dsl.ParamTheta2, fmt.Sprint(g.Theta2)),
			gate.WeightA, gate.WeightB, gate.WeightC, gate.WeightA, gate.MinUnits))
	}
	for _, a := range p.Arms {
		param := dsl.ParamBM25K
		if a.Arm == "vector" {
			param = dsl.ParamVectorK
		}
		text := fmt.Sprintf("Retrieve %s k=%s", a.Arm, mark(param, fmt.Sprint(a.K)))
		if a.Arm == "vector" && a.On == "" { // a backend elsewhere scans its own way
			scan := a.Scan
			if scan == dsl.ScanInt8 {
				scan += fmt.Sprintf("+rescore %d", vector.RescoreDepth(a.fetch()))
			}
			text += " scan=" + mark(dsl.ParamVectorScan, scan)
		}
		if a.On != "" {
			text += " on=" + a.On
		}
		if len(a.Filter) > 0 {
			text += " filter=(" + describe(a.Filter) + ")"
		}
		if len(a.Residual) > 0 {
			text += fmt.Sprintf(" post-filter=(%s) fetch=%d", describe(a.Residual), a.fetch())
		}
		lines = append(lines, line{depth, "Retrieve " + a.Arm, text})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "RETRIEVE %q\n", p.Query.Text)
	if bs := p.Query.Bindings; len(bs) > 0 {
		params := make([]string, len(bs))
		for i, x := range bs {
			params[i] = x.String()
		}
		fmt.Fprintf(&b, "params: %s\n", strings.Join(params, ", "))
	}
	for _, l := range lines {
		b.WriteString(strings.Repeat("  ", l.depth) + "-> " + l.text)
		if r, ok := rep[l.op]; ok {
			fmt.Fprintf(&b, "  (rows in=%d out=%d, %.3f ms)", r.RowsIn, r.RowsOut, r.Millis)
			if r.Note != "" {
				b.WriteString("\n" + strings.Repeat("  ", l.depth+2) + r.Note)
			}
		}
		b.WriteByte('\n')
	}
	if len(p.Rules) > 0 {
		fmt.Fprintf(&b, "rules: %s\n", strings.Join(p.Rules, ", "))
	}
	if len(d) > 0 {
		b.WriteString("(* = default)\n")
	}
	return b.String()
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}
