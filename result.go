package medkb

import (
	"encoding/json"
	"strings"

	"github.com/medkb/medkb/planner"
)

// Result is what Query returns. The JSON names are those of
// `medkb query --json`, a contract of the command line.
type Result struct {
	// Mode is "run", "explain" (the plan only; nothing ran) or "analyze"
	// (EXPLAIN ANALYZE: it ran, and Analyze reports each operator).
	Mode  string `json:"mode"`
	Query string `json:"query"` // the statement as given
	Plan  string `json:"plan"`  // the plan EXPLAIN prints
	// Items is the evidence packed into Context, in citation order.
	Items []Item `json:"items"`
	// Dropped lists the candidates left out, and why.
	Dropped []Dropped `json:"dropped"`
	// Budget is the PACK budget in tokens.
	Budget int `json:"budget"`
	// TokensUsed is what Context costs: the sum of the items' Tokens.
	TokensUsed int `json:"tokens_used"`
	// Context is the evidence ready for a prompt, one line an item:
	// "[1] T2 2023-09-12 compressed: text". With PACK it costs at most
	// Budget tokens, citation numbers and tags included.
	Context string `json:"context"`
	// Sources says where each citation comes from, one an item in
	// citation order; it does not count against Budget.
	Sources []Source `json:"sources"`
	// Expansion reports the knowledge-graph expansion (EXPAND).
	Expansion Expansion `json:"expansion"`
	// Relevance says which candidates counted as evidence, and why; an
	// empty result says here why nothing did.
	Relevance Relevance `json:"relevance"`
	// Gate is the completeness gate's reading of the query text (GATE);
	// nil without GATE.
	Gate *Gate `json:"gate,omitempty"`
	// Quota is each tier's minimum and whether packing met it.
	Quota    []Quota `json:"quota,omitempty"`
	QuotaMet bool    `json:"quota_met"`
	// Tiers lists the tiers the packed items cover.
	Tiers []string `json:"tiers_covered"`
	// Analyze holds one report an operator under EXPLAIN ANALYZE.
	Analyze []OpReport `json:"analyze,omitempty"`
}

// Item is one piece of evidence in a Result: one state of one chunk.
type Item struct {
	Rank  int    `json:"rank"` // citation number in Context, from 1
	ID    string `json:"id"`   // the chunk: document id "#" chunk index
	Doc   string `json:"doc"`  // the document id
	Chunk int    `json:"chunk"`
	Tier  string `json:"tier"`           // "T1".."T4"
	Type  string `json:"type,omitempty"` // the document's type
	Time  string `json:"time,omitempty"` // the document's time, as given
	// State is "A" (the full text) or "B" (the compressed text).
	State string `json:"state"`
	// Cut: the uniform baseline strategy cut the full text short.
	Cut bool `json:"cut,omitempty"`
	// Tokens is what the item costs in Context: its whole line,
	// citation number and tags included.
	Tokens int `json:"tokens"`
	// Score is the fused retrieval score; Utility and Density (utility
	// per token) are the packer's, when it computes them.
	Score   float64 `json:"score"`
	Utility float64 `json:"utility,omitempty"`
	Density float64 `json:"density,omitempty"`
	Why     string  `json:"why,omitempty"` // why the packer took it
	// Reliability is the document's evidence reliability in [0, 1], from
	// its study design and age (docs/reliability.md); absent for a
	// document of no known design and for a graph path.
	Reliability float64 `json:"reliability,omitempty"`
	// Other says what became of the chunk's other state, when it has
	// one: "mutual-exclusion" (this state won), "budget" (the other was
	// denser but did not fit) or "a-only" (a baseline strategy, which
	// packs full texts only).
	Other      string     `json:"other_state,omitempty"`
	Text       string     `json:"text"` // the text of State
	Provenance Provenance `json:"provenance"`
}

// Source says where one citation of Context comes from: the chunk and
// what its document says of itself (empty fields for what it lacks, all
// of them for a document deleted while the query ran), or the graph path
// a path item is. String gives the line `medkb query` prints:
// "[1] doc#0, "title", type, source, patient P1, time".
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
	Path      *Path  `json:"path,omitempty"`      // a graph path's item only
}

// String is the source's line in the source list; a document without a
// time shows its published date.
func (s Source) String() string {
	return planner.Source{Rank: s.Rank, ID: s.ID, Doc: s.Doc, Title: s.Title, Type: s.Type, Source: s.Source,
		Patient: s.Patient, Time: s.Time, Published: s.Published, Path: (*planner.Path)(s.Path)}.String()
}

// Provenance says how an item was found and scored.
type Provenance struct {
	BM25   *ArmScore `json:"bm25"`   // nil when BM25 did not find it
	Vector *ArmScore `json:"vector"` // nil when the vector scan did not
	Fused  float64   `json:"fused"`  // the fused score
	// Votes counts other chunks of its document that were retrieved.
	Votes int `json:"votes,omitempty"`
	// Boost is what graph support added to the score; Path is the
	// graph path that supports it, or nil.
	Boost float64 `json:"graph_boost,omitempty"`
	Path  *Path   `json:"path"`
	// Relevance is the candidate's relevance to the question (0..1),
	// Coverage the share of the question's topic its text holds.
	Relevance float64 `json:"relevance"`
	Coverage  float64 `json:"coverage"`
	// Rerank is the reranker's score (RERANK); nil when it did not score
	// the item: no RERANK, a graph path, or beyond RERANK's top.
	Rerank *float64 `json:"rerank,omitempty"`
	// Context: not found for the question but part of the patient's
	// record, packed into room the relevant evidence left.
	Context bool `json:"context,omitempty"`
	// Outlier: far from the rest of the evidence (its mean cosine to the
	// other candidates), flagged and kept; OutlierReason says by how far.
	Outlier       bool   `json:"outlier,omitempty"`
	OutlierReason string `json:"outlier_reason,omitempty"`
}

// ArmScore is a candidate's rank (from 1) and score in one retriever.
type ArmScore struct {
	Rank  int     `json:"rank"`
	Score float64 `json:"score"`
}

// Dropped is a candidate left out of Context.
type Dropped struct {
	ID string `json:"id"` // the chunk, as Item.ID
	// Reason is why: "budget", "lower-density", "quota",
	// "mutual-exclusion", "not-relevant", "duplicate" (Detail names the
	// kept copy and the test that matched), "limit", ...
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// Expansion reports the conditional knowledge-graph expansion.
type Expansion struct {
	Fired   bool     `json:"fired"`   // whether it ran
	Anchors []string `json:"anchors"` // the entities it started from
	Reason  string   `json:"reason"`  // why it ran or did not
	Paths   []Path   `json:"paths"`   // the paths found, best first
	// Truncated: the statement's paths reached the work bound of one
	// statement, so a metapath may have found fewer than its LIMIT;
	// those found are still its best, in order.
	Truncated bool `json:"truncated,omitempty"`
}

// Path is one instance of a metapath, turned into evidence.
type Path struct {
	Nodes     []string `json:"nodes"`     // entity names, in path order
	Types     []string `json:"types"`     // their types
	Relations []string `json:"relations"` // the edges between them
	// Reverse[i] is true when step i was walked against its edge; the
	// JSON writes such a relation "<-relation" instead.
	Reverse []bool  `json:"-"`
	Text    string  `json:"text"` // the path as a sentence
	Score   float64 `json:"score"`
}

// MarshalJSON writes the path as `medkb query --json` does, a step walked
// against its edge as "<-relation".
func (p Path) MarshalJSON() ([]byte, error) { return planner.Path(p).MarshalJSON() }

// UnmarshalJSON reads what MarshalJSON writes, a relation "<-relation"
// as a step walked against its edge, so that a Result a Client reads
// from a server is the DB's.
func (p *Path) UnmarshalJSON(b []byte) error {
	type plain Path
	var in plain
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*p = Path(in)
	p.Reverse = nil
	for i, r := range p.Relations {
		if rel, ok := strings.CutPrefix(r, "<-"); ok {
			if p.Reverse == nil {
				p.Reverse = make([]bool, len(p.Relations))
			}
			p.Relations[i], p.Reverse[i] = rel, true
		}
	}
	return nil
}

// Gate is the completeness gate's reading of the query text (GATE;
// docs/gate.md): every sentence labelled A (critical for diagnosis), B
// (helps retrieval) or C (unimportant), the completeness score I in
// [0, 1] and the decision: "answer" (I >= Theta1: the text is complete;
// nothing was retrieved, unless the query reads a patient's record),
// "retrieve", or "warn" (I < Theta2: retrieved, but critical
// information is sparse). Retrieved is false only when the gate
// answered without retrieval; Note says it in words.
type Gate struct {
	Score     float64        `json:"score"`
	Theta1    float64        `json:"theta1"`
	Theta2    float64        `json:"theta2"`
	Decision  string         `json:"decision"`
	Retrieved bool           `json:"retrieved"`
	Note      string         `json:"note"`
	Sentences []GateSentence `json:"sentences"`
}

// GateSentence is one sentence of the query text, its label ("A", "B" or
// "C") and the rule that gave it.
type GateSentence struct {
	Text  string `json:"text"`
	Label string `json:"label"`
	Why   string `json:"why"`
}

// Relevance reports the relevance stage: which candidates count as
// evidence, and why.
type Relevance struct {
	// Mode is "query" (the evidence is what the retrievers found for
	// the question's topic), "record" (the question is about a patient's
	// record as a whole, all of which is evidence) or "none" (nothing
	// is evidence; the result is empty).
	Mode string `json:"mode"`
	// Topic is the question without its scaffolding; Terms its weighted
	// units (stems, CJK bigrams, "concept:NAME"); Generic the words that
	// made the question generic.
	Topic   string   `json:"topic"`
	Terms   []string `json:"terms"`
	Generic []string `json:"generic,omitempty"`
	// Floor is the least evidence a candidate needs to be relevant.
	Floor float64 `json:"floor"`
	// How many candidates were relevant, context (the rest of a
	// patient's record, packed only into room left) and dropped.
	Relevant int `json:"relevant"`
	Context  int `json:"context"`
	Dropped  int `json:"dropped"`
	// Note says in words what happened, and why when nothing is relevant.
	Note string `json:"note"`
}

// Quota is one tier's minimum and whether packing met it. A tier whose
// candidates are all context has Present 0: the quota does not pull
// context in.
type Quota struct {
	Tier    string `json:"tier"`
	Present int    `json:"present"` // the tier's relevant candidates
	Want    int    `json:"want"`    // the minimum to pack
	Got     int    `json:"got"`     // how many were packed
	Met     bool   `json:"met"`
	Context int    `json:"context,omitempty"` // the tier's context candidates, not counted
}

// OpReport is one operator's line of EXPLAIN ANALYZE.
type OpReport struct {
	Op      string  `json:"op"`
	RowsIn  int     `json:"rows_in"`
	RowsOut int     `json:"rows_out"`
	Millis  float64 `json:"ms"`
	Note    string  `json:"note,omitempty"`
}

// DropSummary counts the drops by reason: "budget 8, lower-density 1".
func (r *Result) DropSummary() string {
	p := planner.Result{Dropped: convert(r.Dropped, func(d Dropped) planner.Dropped { return planner.Dropped(d) })}
	return p.DropSummary()
}

// QuotaSummary says how the tier quota went: "quota T1 1/1 T2 0/1 (not
// met)", "no tier quota applies", with the tiers present only as
// context after it.
func (r *Result) QuotaSummary() string {
	p := planner.Result{QuotaMet: r.QuotaMet, Quota: convert(r.Quota, func(q Quota) planner.Quota { return planner.Quota(q) })}
	return p.QuotaSummary()
}

// newResult converts the planner's result to the API's. Nil slices stay
// nil and empty ones empty, so that the JSON is the planner's.
func newResult(p *planner.Result) *Result {
	if p == nil {
		return nil
	}
	return &Result{
		Mode: p.Mode, Query: p.Query, Plan: p.Plan,
		Items:      convert(p.Items, newItem),
		Dropped:    convert(p.Dropped, func(d planner.Dropped) Dropped { return Dropped(d) }),
		Budget:     p.Budget,
		TokensUsed: p.TokensUsed,
		Context:    p.Context,
		Sources:    convert(p.Sources, newSource),
		Expansion: Expansion{Fired: p.Expansion.Fired, Anchors: p.Expansion.Anchors, Reason: p.Expansion.Reason,
			Paths: convert(p.Expansion.Paths, func(x planner.Path) Path { return Path(x) }), Truncated: p.Expansion.Truncated},
		Relevance: Relevance(p.Relevance),
		Gate:      newGate(p.Gate),
		Quota:     convert(p.Quota, func(q planner.Quota) Quota { return Quota(q) }),
		QuotaMet:  p.QuotaMet,
		Tiers:     p.Tiers,
		Analyze:   convert(p.Analyze, func(o planner.OpReport) OpReport { return OpReport(o) }),
	}
}

func newItem(it planner.Item) Item {
	pv := it.Provenance
	return Item{Rank: it.Rank, ID: it.ID, Doc: it.Doc, Chunk: it.Chunk, Tier: it.Tier, Type: it.Type, Time: it.Time,
		State: it.State, Cut: it.Cut, Tokens: it.Tokens, Score: it.Score, Utility: it.Utility, Density: it.Density,
		Why: it.Why, Reliability: it.Reliability, Other: it.Other, Text: it.Text,
		Provenance: Provenance{BM25: (*ArmScore)(pv.BM25), Vector: (*ArmScore)(pv.Vector), Fused: pv.Fused,
			Votes: pv.Votes, Boost: pv.Boost, Path: (*Path)(pv.Path), Relevance: pv.Relevance,
			Coverage: pv.Coverage, Rerank: pv.Rerank, Context: pv.Context, Outlier: pv.Outlier, OutlierReason: pv.OutlierReason}}
}

func newGate(g *planner.Gate) *Gate {
	if g == nil {
		return nil
	}
	return &Gate{Score: g.Score, Theta1: g.Theta1, Theta2: g.Theta2, Decision: g.Decision, Retrieved: g.Retrieved,
		Note: g.Note, Sentences: convert(g.Sentences, func(s planner.GateSentence) GateSentence { return GateSentence(s) })}
}

func newSource(s planner.Source) Source {
	return Source{Rank: s.Rank, ID: s.ID, Doc: s.Doc, Title: s.Title, Type: s.Type, Source: s.Source,
		Patient: s.Patient, Time: s.Time, Published: s.Published, Path: (*Path)(s.Path)}
}

// convert maps f over in, keeping nil nil.
func convert[S, T any](in []S, f func(S) T) []T {
	if in == nil {
		return nil
	}
	out := make([]T, len(in))
	for i, x := range in {
		out[i] = f(x)
	}
	return out
}
