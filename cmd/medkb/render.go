package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/medkb/medkb"
)

// render prints a result for people: the plan for EXPLAIN, otherwise a
// summary, the items with their provenance, the drops, the context and
// its sources.
func render(w io.Writer, r *medkb.Result) {
	if r.Mode == "explain" {
		fmt.Fprint(w, r.Plan)
		return
	}
	if r.Mode == "analyze" {
		fmt.Fprint(w, r.Plan, "\n")
	}
	summary := fmt.Sprintf("%d item(s), %d tokens", len(r.Items), r.TokensUsed)
	if r.Budget > 0 {
		summary = fmt.Sprintf("%d item(s), %d/%d tokens, %s", len(r.Items), r.TokensUsed, r.Budget, r.QuotaSummary())
	}
	tiers := strings.Join(r.Tiers, " ")
	if tiers == "" {
		tiers = "none"
	}
	fmt.Fprintf(w, "%s; tiers %s\n", summary, tiers)
	if g := r.Gate; g != nil {
		fmt.Fprintf(w, "gate: %s, I %.2f: %s\n", g.Decision, g.Score, g.Note)
	}
	if r.Relevance.Note != "" {
		fmt.Fprintf(w, "relevance: %s\n", r.Relevance.Note)
	}
	e := r.Expansion
	if e.Fired {
		fmt.Fprintf(w, "expansion: fired on %s, %d path(s)\n", strings.Join(e.Anchors, ", "), len(e.Paths))
	} else {
		fmt.Fprintf(w, "expansion: not fired (%s)\n", e.Reason)
	}
	for _, it := range r.Items {
		value := "" // the packer's; a statement without PACK has none
		if r.Budget > 0 {
			value = fmt.Sprintf(", utility %.4g, density %.4g", it.Utility, it.Density)
		}
		fmt.Fprintf(w, "\n[%d] %s %s state %s, %d tokens%s, score %.4f%s\n",
			it.Rank, it.Tier, it.ID, it.State, it.Tokens, value, it.Score, provenance(it))
		fmt.Fprintf(w, "    %s\n", it.Text)
	}
	if len(r.Dropped) > 0 {
		fmt.Fprintf(w, "\ndropped %d: %s\n", len(r.Dropped), r.DropSummary())
	}
	if r.Context != "" {
		fmt.Fprintf(w, "\n--- context ---\n%s", r.Context)
		fmt.Fprintf(w, "\nSources:\n")
		for _, src := range r.Sources {
			fmt.Fprintln(w, src)
		}
	}
}

func provenance(it medkb.Item) string {
	var p []string
	if b := it.Provenance.BM25; b != nil {
		p = append(p, fmt.Sprintf("bm25 #%d (%.3f)", b.Rank, b.Score))
	}
	if v := it.Provenance.Vector; v != nil {
		p = append(p, fmt.Sprintf("vector #%d (%.3f)", v.Rank, v.Score))
	}
	if it.Provenance.Path != nil {
		p = append(p, "graph path")
	}
	if it.Provenance.Boost > 0 {
		p = append(p, fmt.Sprintf("graph boost +%.4f", it.Provenance.Boost))
	}
	if r := it.Provenance.Rerank; r != nil {
		p = append(p, fmt.Sprintf("rerank %.3f", *r))
	}
	if it.Provenance.Context {
		p = append(p, "record context")
	} else if it.Provenance.Relevance > 0 {
		p = append(p, fmt.Sprintf("relevance %.2f", it.Provenance.Relevance))
	}
	if it.Why != "" {
		p = append(p, "why: "+it.Why)
	}
	if it.Other != "" {
		p = append(p, "other state: "+it.Other)
	}
	if len(p) == 0 {
		return ""
	}
	return "; " + strings.Join(p, "; ")
}
