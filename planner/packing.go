package planner

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/reliability"
	"github.com/medkb/medkb/internal/text"
	"github.com/medkb/medkb/planner/pack"
)

// packers keeps EBM-Pack's scratch memory (pack.Packer) from one query
// to the next; the pool lets the garbage collector take idle ones back.
var packers = sync.Pool{New: func() any { return new(pack.Packer) }}

// pathTier is the evidence tier of graph-path evidence: knowledge about
// the entities, not an observation of the patient.
const pathTier = base.T3

// onePatient reports whether every arm keeps one patient's records only
// (WHERE patient = "...").
func (p *Plan) onePatient() bool {
	for _, a := range p.Arms {
		if !slices.ContainsFunc(a.Filter, func(c base.Cond) bool { return c.Field == base.FieldPatient && c.Op == base.OpEq }) {
			return false
		}
	}
	return len(p.Arms) > 0
}

// pack runs the PACK stage over the candidates in fused order. EBM-Pack
// (ebm, paper, exact) packs in two phases: first the relevant evidence,
// under the query's parameters; then, in the room it left, the rest of
// the patient's record (judge's context), tier by tier as the paper's
// formula weighs it (no relevance, no quota), so that context can never
// displace an answer; the items of both are given in one reading order.
// The paper's baselines (fifo, semantic, uniform) pack every candidate
// the relevance stage passed, relevant and context alike, in their own
// order, as the paper defines them.
func (x *execution) pack(ctx context.Context, cands []*candidate) error {
	start := time.Now()
	params := x.p.Pack.Params
	params.Now = x.today()
	pc, err := x.packCandidates(ctx, cands)
	if err != nil {
		return err
	}
	var relevant, record []int
	for i, c := range cands {
		if c.context && usesRelevance(params.Strategy) {
			record = append(record, i)
		} else {
			relevant = append(relevant, i)
		}
	}
	r, err := x.packSome(ctx, cands, pc, relevant, params)
	if err != nil {
		return err
	}
	x.res.Budget = r.Budget
	items, drops := r.Items, r.Dropped
	if len(record) > 0 {
		rest := params
		rest.Budget, rest.Kmin, rest.RelevancePower = params.Budget-r.TokensUsed, 0, 0
		rc, err := x.packSome(ctx, cands, pc, record, rest)
		if err != nil {
			return err
		}
		for k := range rc.Items {
			rc.Items[k].InQuota = false // the record's context is outside r's quota
		}
		items, drops = append(items, rc.Items...), append(drops, rc.Dropped...)
		slices.SortFunc(items, pack.ReadingCmp)
		slices.SortFunc(drops, func(a, b pack.Drop) int { return cmp.Compare(a.Index, b.Index) })
	}
	x.quota = packedQuota{quota: r.Quota, items: items, inContext: contextPerTier(cands)}
	x.res.Quota, x.res.QuotaMet = x.quota.report(r.Quota, r.QuotaMet)
	bStates := 0
	for _, it := range items {
		c := cands[it.Index]
		why := string(it.Why)
		if c.context {
			why = "context"
		}
		item := x.item(c, string(it.State), it.Text, it.Utility, it.Density, why)
		item.Other = it.Other.String()
		item.Cut = it.State == pack.StateA && isCut(c, it.Text)
		x.res.Items = append(x.res.Items, item)
		if it.State == pack.StateB {
			bStates++
		}
	}
	firstDrop := len(x.res.Dropped)
	left := params.Budget - r.TokensUsed
	for _, d := range drops {
		drop := Dropped{ID: pc[d.Index].ID, Reason: d.Reason.String(), Detail: dropDetail(d, &pc[d.Index])}
		if len(record) > 0 && cands[d.Index].context {
			drop.Reason = "context"
			drop.Detail += fmt.Sprintf("; record context, for which %d tokens were left", left)
		}
		x.res.Dropped = append(x.res.Dropped, drop)
	}
	detail := fmt.Sprintf("packed %d of %d (%d in state B)", len(items), len(cands), bStates)
	if len(record) > 0 {
		detail += fmt.Sprintf(", %d of them from the record's context", len(items)-len(r.Items))
	}
	detail += "; " + x.res.QuotaSummary()
	if r.QuotaPrice > 0 {
		detail += fmt.Sprintf("; quota blocks chosen at %.3g utility a token", r.QuotaPrice)
	}
	if drops := x.res.Dropped[firstDrop:]; len(drops) > 0 {
		detail += "; dropped " + dropSummary(drops)
	}
	x.report(opPack, len(cands), len(items), start, detail)
	return nil
}

// usesRelevance reports whether strategy s weighs relevance: EBM-Pack in
// its three forms, not the paper's baselines.
func usesRelevance(s pack.Strategy) bool {
	return s == pack.Ebm || s == pack.Paper || s == pack.Exact
}

// packCandidates turns the candidates into the packer's, with their
// lines' costs and their states' cosines to the query.
func (x *execution) packCandidates(ctx context.Context, cands []*candidate) ([]pack.Candidate, error) {
	if err := x.loadVectors(cands); err != nil { // Dedup's, if it ran
		return nil, err
	}
	pc := make([]pack.Candidate, len(cands))
	var pathTexts []string
	for i, c := range cands {
		if i%checkEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		pc[i] = pack.Candidate{ID: c.id(), Tier: c.tier(), Day: c.day(), Rank: i, Relevance: c.rel,
			A: pack.State{Text: c.text(), Tokens: x.lineTokens(c, len(cands), lineTag("A", false), c.text(), textTokens(c))}}
		if c.path != nil {
			pathTexts = append(pathTexts, c.path.Text)
			continue
		}
		ch := c.chunk
		pc[i].A.Sim = x.sim(c.vec)
		pc[i].NEntity, pc[i].NTotal, pc[i].Permanent = ch.NEntity, ch.NTotal, ch.Permanent
		if ch.HasB() {
			pc[i].B = &pack.State{Text: ch.TextB, Tokens: x.lineTokens(c, len(cands), lineTag("B", false), ch.TextB, ch.TokensB), Sim: x.sim(ch.VectorB)}
		}
	}
	if len(pathTexts) > 0 {
		if err := x.pathSims(ctx, pc, cands, pathTexts); err != nil {
			return nil, err
		}
	}
	if x.p.Pack.Params.Reliability > 0 {
		if err := x.reliabilities(pc, cands); err != nil {
			return nil, err
		}
	}
	return pc, nil
}

// reliabilities sets the candidates' evidence reliability from their
// documents, read only when PACK weighs it; a graph path has none (0).
func (x *execution) reliabilities(pc []pack.Candidate, cands []*candidate) error {
	var ids []string
	var which []int
	for i, c := range cands {
		if c.path == nil {
			ids, which = append(ids, c.chunk.Doc), append(which, i)
		}
	}
	docs, err := x.env.Store.Docs(ids)
	if err != nil {
		return err
	}
	today := x.today()
	for k, d := range docs {
		if d != nil {
			pc[which[k]].Reliability = reliability.Score(reliability.Of(d), today)
		}
	}
	return nil
}

// packSome packs the candidates pc[which] under params; the result's
// indices are into pc.
func (x *execution) packSome(ctx context.Context, cands []*candidate, pc []pack.Candidate, which []int, params pack.Params) (*pack.Result, error) {
	some := make([]pack.Candidate, len(which))
	for k, i := range which {
		some[k] = pc[i]
	}
	params.Count = func(k int, cut string) int { // Uniform's cut texts, costed as lines
		c := cands[which[k]]
		return x.lineTokens(c, len(cands), lineTag("A", isCut(c, cut)), cut, -1)
	}
	pk := packers.Get().(*pack.Packer)
	r, err := pk.PackContext(ctx, some, params)
	packers.Put(pk)
	if err != nil {
		return nil, err
	}
	for k := range r.Items {
		r.Items[k].Index = which[r.Items[k].Index]
	}
	for k := range r.Dropped {
		r.Dropped[k].Index = which[r.Dropped[k].Index]
	}
	return r, nil
}

// packedQuota is what LIMIT needs to count the tier quota again: the
// packer's quota, the packed items in the order of Result.Items, and each
// tier's context blocks.
type packedQuota struct {
	quota     []pack.TierQuota
	items     []pack.Item
	inContext [base.T4 + 1]int
}

func contextPerTier(cands []*candidate) [base.T4 + 1]int {
	var n [base.T4 + 1]int
	for _, c := range cands {
		if c.context {
			n[c.tier()]++
		}
	}
	return n
}

// report is the packer's quota (tiers with blocks it counts) with each
// tier's context blocks, and a tier present only as context listed too.
// The counting is the packer's (pack.Recount); this only presents it.
func (pq *packedQuota) report(quota []pack.TierQuota, met bool) ([]Quota, bool) {
	var out []Quota
	for _, t := range base.Tiers {
		q := Quota{Tier: t.String(), Met: true, Context: pq.inContext[t]}
		switch {
		case len(quota) > 0 && quota[0].Tier == t:
			q.Present, q.Want, q.Got, q.Met = quota[0].Present, quota[0].Want, quota[0].Got, quota[0].Met
			quota = quota[1:]
		case pq.inContext[t] == 0:
			continue
		}
		out = append(out, q)
	}
	return out, met
}

// pathSims embeds the path texts and sets their similarity to the query.
func (x *execution) pathSims(ctx context.Context, pc []pack.Candidate, cands []*candidate, texts []string) error {
	vecs, err := x.env.Embedder.Embed(ctx, texts)
	if err != nil {
		return err
	}
	j := 0
	for i, c := range cands {
		if c.path != nil {
			pc[i].A.Sim = x.sim(vecs[j])
			j++
		}
	}
	return nil
}

// lineTokens is what a state of c costs in the context: its whole line
// (lineHead, the text, a newline), numbered as the last of all
// candidates. Citation numbers are given after packing; none has more
// digits than that, and a number with fewer digits never costs more. n is
// the text's own count when known (stored at ingest), else -1.
func (x *execution) lineTokens(c *candidate, all int, tag, txt string, n int) int {
	return x.lineCount(lineHead(all, c.tier().String(), c.path != nil, c.day(), tag), txt, n)
}

// lineCount is what the line head + txt + "\n" costs, given n, what txt
// alone costs as the store counted it at ingest (n <= 0: not known, for a
// graph path or a text cut short): only the words at txt's edges are
// counted again (text.CountAround), which gives the line's whole count.
func (x *execution) lineCount(head, txt string, n int) int {
	if n <= 0 {
		return x.env.Count(head + txt + "\n")
	}
	return text.CountAround(x.env.Count, head, txt, "\n", n)
}

// isCut reports whether txt is c's text cut short (the uniform baseline).
func isCut(c *candidate, txt string) bool { return txt != strings.TrimSpace(c.text()) }

// textTokens is what c's full text alone costs, stored at ingest for a
// chunk; -1 (not known) for a graph path.
func textTokens(c *candidate) int {
	if c.path != nil {
		return -1
	}
	return c.chunk.TokensA
}

// top keeps the fused candidates in order, in full text, without packing
// (assemble counts their tokens).
func (x *execution) top(cands []*candidate) {
	for _, c := range cands {
		x.res.Items = append(x.res.Items, x.item(c, "A", c.text(), 0, 0, "rank"))
	}
}

// limit applies LIMIT to the items.
func (x *execution) limit() {
	n := x.p.Limit
	if n <= 0 || len(x.res.Items) <= n {
		return
	}
	start := time.Now()
	for _, it := range x.res.Items[n:] {
		x.res.Dropped = append(x.res.Dropped, Dropped{ID: it.ID, Reason: "limit"})
	}
	in := len(x.res.Items)
	x.res.Items = x.res.Items[:n]
	detail := ""
	if len(x.res.Quota) > 0 {
		// Result.Items are the packed items in order, so the first n
		// are what is left of the packing.
		q, met := pack.Recount(x.quota.quota, x.quota.items[:n])
		x.res.Quota, x.res.QuotaMet = x.quota.report(q, met)
		detail = x.res.QuotaSummary()
	}
	x.report(opLimit, in, n, start, detail)
}

// item makes c, in the given state, an item of the result; assemble
// numbers it and counts its tokens.
func (x *execution) item(c *candidate, state, text string, utility, density float64, why string) Item {
	it := Item{ID: c.id(), Tier: c.tier().String(), State: state, Text: text, Score: c.Score + c.boost,
		Utility: utility, Density: density, Why: why, day: c.day(),
		Provenance: Provenance{BM25: c.BM25, Vector: c.Vector, Fused: c.Score, Votes: c.Votes, Boost: c.boost, Path: c.path,
			Relevance: c.rel, Coverage: c.coverage, Rerank: c.rerank, Context: c.context}}
	it.Provenance.OutlierReason, it.Provenance.Outlier = x.outliers[c]

	if c.path != nil {
		it.Type = "graph-path"
		return it
	}
	it.Doc, it.Chunk = c.chunk.Doc, c.chunk.Index
	switch text {
	case c.chunk.Text:
		it.textTokens = c.chunk.TokensA
	case c.chunk.TextB:
		it.textTokens = c.chunk.TokensB
	}
	return it
}

// dropDetail describes a dropped block by its densest state and, when it
// has two, the other one's tokens: a block dropped for lower density may
// have a densest state larger than the budget and a state B that fits.
// "T4, state A, 112 tokens, density 0.01234; state B 40 tokens": most
// candidates are dropped, so it formats with strconv, not fmt (the same
// text: FormatFloat is what fmt's %.4g calls).
func dropDetail(d pack.Drop, c *pack.Candidate) string {
	if d.State == 0 {
		return d.Tier.String() + ", no text" // pack.ReasonEmpty
	}
	b := make([]byte, 0, 64)
	b = append(b, d.Tier.String()...)
	b = append(b, ", state "...)
	b = append(b, d.State.String()...)
	b = append(b, ", "...)
	b = strconv.AppendInt(b, int64(d.Tokens), 10)
	b = append(b, " tokens, density "...)
	b = strconv.AppendFloat(b, d.Density, 'g', 4, 64)
	if c.B != nil && c.B.Tokens != 0 && c.A.Tokens != 0 {
		other, tokens := pack.StateA, c.A.Tokens
		if d.State == pack.StateA {
			other, tokens = pack.StateB, c.B.Tokens
		}
		b = append(b, "; state "...)
		b = append(b, other.String()...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(tokens), 10)
		b = append(b, " tokens"...)
	}
	return string(b)
}
