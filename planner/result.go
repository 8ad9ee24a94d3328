package planner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/medkb/medkb/internal/base"
)

// Result is what a query returns: the same struct in Go and, with these
// JSON names (a contract of `medkb query --json`), on the command line.
type Result struct {
	// Mode is "run", "explain" (plan only, nothing ran) or "analyze".
	Mode    string    `json:"mode"`
	Query   string    `json:"query"`
	Plan    string    `json:"plan"`
	Items   []Item    `json:"items"`
	Dropped []Dropped `json:"dropped"`
	Budget  int       `json:"budget"`
	// TokensUsed is what Context costs: the sum of the items' Tokens.
	TokensUsed int `json:"tokens_used"`
	// Context is the cited evidence, one line an item, ready for a prompt:
	// "[1] T2 2023-09-12 compressed: text" (see lineHead). With PACK it
	// costs at most Budget tokens, citation numbers and tags included.
	// Sources says where each citation comes from, one an item in
	// citation order; it is outside the budget.
	Context   string    `json:"context"`
	Sources   []Source  `json:"sources"`
	Expansion Expansion `json:"expansion"`
	// Relevance says which candidates counted as evidence, and why; an
	// empty result says here why nothing did.
	Relevance Relevance `json:"relevance"`
	// Gate is the completeness gate's reading of the query (GATE); nil
	// without GATE.
	Gate     *Gate      `json:"gate,omitempty"`
	Quota    []Quota    `json:"quota,omitempty"`
	QuotaMet bool       `json:"quota_met"`
	Tiers    []string   `json:"tiers_covered"`
	Analyze  []OpReport `json:"analyze,omitempty"`
}

// Item is one piece of evidence in the packed context.
type Item struct {
	Rank  int    `json:"rank"` // citation number, from 1
	ID    string `json:"id"`   // chunk id: document id "#" chunk index
	Doc   string `json:"doc"`
	Chunk int    `json:"chunk"`
	Tier  string `json:"tier"`
	Type  string `json:"type,omitempty"`
	Time  string `json:"time,omitempty"`
	State string `json:"state"` // "A" full text, "B" compressed
	// Cut: the uniform baseline cut the full text short.
	Cut bool `json:"cut,omitempty"`
	// Tokens is the item's cost in the context: its whole line, citation
	// number and tags included, not only Text.
	Tokens  int     `json:"tokens"`
	Score   float64 `json:"score"` // fused score
	Utility float64 `json:"utility,omitempty"`
	Density float64 `json:"density,omitempty"`
	Why     string  `json:"why,omitempty"`
	// Reliability is the document's evidence reliability in [0, 1], from
	// its study design and age (internal/reliability, docs/reliability.md);
	// absent for a document of no known design and for a graph path.
	Reliability float64 `json:"reliability,omitempty"`
	// Other is what became of the chunk's other state, when it has one:
	// "mutual-exclusion" (this state won), "budget" (the other was
	// denser but did not fit) or "a-only" (a baseline strategy, which
	// considers full texts only).
	Other      string     `json:"other_state,omitempty"`
	Text       string     `json:"text"`
	Provenance Provenance `json:"provenance"`

	// day is the date its context line shows (lineHead): its vector
	// slot's, so that the line costs the same before and after packing.
	day base.Day
	// textTokens is what Text alone costs when the store counted it at
	// ingest (a chunk's text or its state B), else 0.
	textTokens int
}

// Source says where one citation of the context comes from: the chunk
// and what its document says of itself, as data, so that a caller can
// link or filter citations without parsing a line; String gives the line
// the command prints. A graph path (Item.Provenance.Path) has no
// document: Path holds it instead. A document field the document lacks
// is empty, and so are all of them when the document was deleted between
// retrieval and assembly.
type Source struct {
	Rank      int    `json:"rank"` // the citation number in Context, from 1
	ID        string `json:"id"`   // the chunk, as Item.ID
	Doc       string `json:"doc,omitempty"`
	Title     string `json:"title,omitempty"`
	Type      string `json:"type,omitempty"`
	Source    string `json:"source,omitempty"`
	Patient   string `json:"patient,omitempty"`
	Time      string `json:"time,omitempty"`      // as the document gives it
	Published string `json:"published,omitempty"` // as the document gives it
	Path      *Path  `json:"path,omitempty"`
}

// Provenance says where an item came from.
type Provenance struct {
	BM25   *ArmScore `json:"bm25"`
	Vector *ArmScore `json:"vector"`
	Fused  float64   `json:"fused"`
	Votes  int       `json:"votes,omitempty"`
	Boost  float64   `json:"graph_boost,omitempty"`
	Path   *Path     `json:"path"`
	// Relevance is the candidate's relevance to the query (0..1), and
	// Coverage the share of the question's topic its text holds (see
	// Relevance, the stage).
	Relevance float64 `json:"relevance"`
	Coverage  float64 `json:"coverage"`
	// Rerank is the reranker's score (RERANK); nil when it did not score
	// the item (no RERANK, a graph path, or beyond RERANK's top).
	Rerank *float64 `json:"rerank,omitempty"`
	// Context: not found for the question, but part of the patient's
	// record, packed into room the relevant evidence left.
	Context bool `json:"context,omitempty"`
	// Outlier: far from the rest of the evidence (its mean cosine to the
	// other candidates; see Dedup), flagged and kept; OutlierReason says
	// by how far.
	Outlier       bool   `json:"outlier,omitempty"`
	OutlierReason string `json:"outlier_reason,omitempty"`
}

// Dropped is a candidate that did not make it into the context, and why.
type Dropped struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// Expansion reports the conditional graph expansion.
type Expansion struct {
	Fired   bool     `json:"fired"`
	Anchors []string `json:"anchors"`
	Reason  string   `json:"reason"`
	Paths   []Path   `json:"paths"`
	// Truncated: the statement's metapaths queued as many partial paths
	// as one statement may (its work bound), so some may have found
	// fewer paths than LIMIT. The paths found are still the best of
	// their metapath, in order.
	Truncated bool `json:"truncated,omitempty"`
}

// Path is one metapath instance turned into evidence. Relations[i] joins
// Nodes[i] and Nodes[i+1]; Reverse[i] says that step was walked against
// the edge (Nodes[i+1] -Relations[i]-> Nodes[i] in the graph).
type Path struct {
	Nodes     []string `json:"nodes"`
	Types     []string `json:"types"`
	Relations []string `json:"relations"`
	Reverse   []bool   `json:"-"`
	Text      string   `json:"text"`
	Score     float64  `json:"score"`
}

// MarshalJSON writes the path in the JSON of `medkb query --json`, where
// a step walked against its edge has its relation written "<-relation".
// The spelling is output only: nothing reads it back.
func (p Path) MarshalJSON() ([]byte, error) {
	type plain Path
	out := plain(p)
	out.Relations = make([]string, len(p.Relations))
	for i, r := range p.Relations {
		if p.reversed(i) {
			r = "<-" + r
		}
		out.Relations[i] = r
	}
	// Unescaped, so that the caller's encoder decides about "<" as it
	// does for the rest of the Result.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// reversed reports whether step i was walked against its edge.
func (p *Path) reversed(i int) bool { return i < len(p.Reverse) && p.Reverse[i] }

// Quota is one tier's minimum and whether packing met it. A tier whose
// candidates are all context (the rest of a patient's record, see
// Relevance) is listed with Present 0: the quota does not pull context
// in.
type Quota struct {
	Tier    string `json:"tier"`
	Present int    `json:"present"`
	Want    int    `json:"want"`
	Got     int    `json:"got"`
	Met     bool   `json:"met"`
	Context int    `json:"context,omitempty"` // the tier's context blocks, which the quota does not count
}

// DropSummary counts the drops by reason: "budget 8, lower-density 1".
func (r *Result) DropSummary() string { return dropSummary(r.Dropped) }

func dropSummary(drops []Dropped) string {
	counts := map[string]int{}
	for _, d := range drops {
		counts[d.Reason]++
	}
	reasons := make([]string, 0, len(counts))
	for k, v := range counts {
		reasons = append(reasons, fmt.Sprintf("%s %d", k, v))
	}
	slices.Sort(reasons)
	return strings.Join(reasons, ", ")
}

// QuotaSummary is "quota T1 1/1 T2 0/1 (not met)": for each tier whose
// quota wants blocks, those packed of those wanted; "no tier quota
// applies" when none wants any (kmin 0, or nothing to pack). Tiers
// present only as context follow, "; T4 context only, no quota", unless
// the quota is visibly off (kmin 0: a tier with blocks wants none).
func (r *Result) QuotaSummary() string {
	var sb strings.Builder
	var contextOnly []string
	kminZero := false // no quota wants anything anyway
	for _, q := range r.Quota {
		if q.Want > 0 {
			fmt.Fprintf(&sb, " %s %d/%d", q.Tier, q.Got, q.Want)
		}
		if q.Present == 0 && q.Context > 0 {
			contextOnly = append(contextOnly, q.Tier)
		}
		kminZero = kminZero || q.Present > 0 && q.Want == 0
	}
	context := ""
	if len(contextOnly) > 0 && !kminZero {
		context = "; " + strings.Join(contextOnly, ", ") + " context only, no quota"
	}
	switch {
	case sb.Len() == 0:
		return "no tier quota applies" + context
	case r.QuotaMet:
		return "quota" + sb.String() + " (met)" + context
	}
	return "quota" + sb.String() + " (not met)" + context
}

// OpReport is one operator's EXPLAIN ANALYZE line.
type OpReport struct {
	Op      string  `json:"op"`
	RowsIn  int     `json:"rows_in"`
	RowsOut int     `json:"rows_out"`
	Millis  float64 `json:"ms"`
	Note    string  `json:"note,omitempty"`
}
