package planner

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/medkb/medkb/dsl"
	"github.com/medkb/medkb/internal/clinical"
)

// Relevance modes (Relevance.Mode).
const (
	// ModeQuery: the evidence is what the retrievers found for the
	// question's topic.
	ModeQuery = "query"
	// ModeRecord: the question is about one patient's record as a whole
	// ("summarise the findings", "简述该病人的诊断及诊断依据"), so every
	// chunk of the record is evidence; what the topic matches ranks first.
	ModeRecord = "record"
	// ModeNone: no candidate is evidence; the result is empty.
	ModeNone = "none"
)

// Relevance reports the relevance stage: which candidates count as
// evidence, and why.
type Relevance struct {
	Mode string `json:"mode"`
	// Topic is the question without its scaffolding (clinical.Question),
	// Terms the topic's weighted units (BM25's terms: stems, CJK bigrams;
	// "concept:NAME" for a named concept), Generic the words that made
	// the question generic.
	Topic   string   `json:"topic"`
	Terms   []string `json:"terms"`
	Generic []string `json:"generic,omitempty"`
	// Floor is the least evidence a candidate needs to be relevant.
	Floor float64 `json:"floor"`
	// Relevant candidates reached the floor (or belong to the record in
	// ModeRecord); Context ones are the rest of a patient's record, which
	// PACK uses only for room the relevant evidence leaves; Dropped ones
	// are not evidence.
	Relevant int `json:"relevant"`
	Context  int `json:"context"`
	Dropped  int `json:"dropped"`
	// Note says in words what happened, and why when nothing is relevant.
	Note string `json:"note"`
}

// The relevance stage's constants (see judge and score).
const (
	// minEvidence is the floor: a candidate is relevant when its
	// evidence, the strongest signal that a retriever found it for the
	// topic, reaches it: the chunk holds 15 % of the topic's weight, or
	// its cosine weighted by the embedder's trust is 0.15, or the graph
	// supports it.
	minEvidence = 0.15
	// onTopic is the least share of the topic's weight that the store
	// must know (topic.known) for anything to be relevant.
	onTopic = 0.5
	// pathRelevance is a graph path's, anchored on the query's entities;
	// graphShare a chunk's that names the most path entities.
	pathRelevance = 0.5
	graphShare    = 0.5
	// recordRelevance is the relevance of a record's chunk in ModeRecord,
	// and the base of those the topic matches: half of the most relevant,
	// so that the tier quota (pack.QuotaRelevance) covers every one.
	recordRelevance = 0.5
)

// judge decides which candidates are evidence for the query, scores
// their relevance (c.rel, for PACK: relative to the best candidate's, so
// 1 for the best) and returns the candidates that go on, in fused order:
// relevant ones, and in a patient's record the rest as context
// (c.context). The others are reported as dropped, reason "not-relevant".
//
// A candidate is relevant when a retriever really found it for the
// question's topic: its evidence reaches minEvidence. The vector arm's
// bare presence proves nothing (it always returns k chunks, however
// unrelated), and the hash embedder's cosines are too noisy to prove
// anything alone (weighted 0.15, they never reach the floor). Without
// PACK, a ranked list keeps every BM25 hit and every chunk that holds a
// topic unit. Nothing is relevant when the store knows less than onTopic
// of the topic's weight ("how to adjust bicycle brakes" in a clinical
// store), except a graph path from an entity the query names: the query
// asks about that entity, though no chunk may hold its words (a store of
// the TCM graph alone).
//
// With WHERE patient = "..." on every arm, the record is the haystack and
// the question is about that patient. A generic question, one whose topic
// is empty once its scaffolding is gone ("how is he doing?"), or one whose
// topic matches nothing in the record although the store knows it, is
// about the whole record: every chunk is relevant, those the topic
// matches first (ModeRecord). A specific question's relevant chunks come
// first; the rest of the record may fill the room they leave, after them
// and without quota (context). Without a patient filter nothing but
// relevant candidates goes on.
func (x *execution) judge(ctx context.Context, cands []*candidate) ([]*candidate, error) {
	start := time.Now()
	r, err := x.topic.wait()
	if err != nil {
		return nil, err
	}
	q, t := r.question, r.topic
	rel := &x.res.Relevance
	*rel = Relevance{Topic: q.Topic, Terms: t.names(), Generic: q.Asks, Floor: minEvidence}
	var best bests
	for _, c := range cands {
		if c.BM25 != nil {
			best.bm25 = max(best.bm25, c.BM25.Score)
		}
		best.boost = max(best.boost, c.boost)
	}
	onTopicQuery := t.total > 0 && t.known >= onTopic*t.total
	bestRel := 0.0
	if onTopicQuery {
		if err := x.coverAll(ctx, &t, cands); err != nil {
			return nil, err
		}
		for _, c := range cands {
			x.score(c, &t, best)
			bestRel = max(bestRel, c.rel)
		}
	}
	relevant := func(c *candidate) bool {
		switch {
		case c.named:
			return true
		case !onTopicQuery:
			return false
		case x.p.Pack == nil: // a ranked list keeps every real hit
			return c.BM25 != nil || c.coverage > 0 || c.evidence >= minEvidence
		}
		return c.evidence >= minEvidence
	}
	// docvote passes whole documents on (ICA-RAG): a chunk of a
	// document with a relevant chunk is relevant with it, as relevant as
	// the document's best.
	wholeDocs := map[string]float64{}
	if x.p.Fuse.Method == dsl.FuseDocVote {
		for _, c := range cands {
			if c.chunk != nil && relevant(c) {
				wholeDocs[c.chunk.Doc] = max(wholeDocs[c.chunk.Doc], c.rel)
			}
		}
		inner := relevant
		relevant = func(c *candidate) bool {
			if inner(c) {
				return true
			}
			if r, ok := wholeDocs[docID(c)]; ok {
				c.rel = r
				return true
			}
			return false
		}
	}
	found := 0
	for _, c := range cands {
		if relevant(c) {
			found++
		}
	}
	scope := x.p.onePatient()
	record := scope && (q.Generic || t.total == 0 || found == 0 && onTopicQuery)
	switch {
	case record:
		rel.Mode = ModeRecord
	case found > 0:
		rel.Mode = ModeQuery
	default:
		rel.Mode = ModeNone
	}
	out := cands[:0:0]
	for _, c := range cands {
		switch {
		case record:
			// Every chunk of the record is evidence and in the tier quota
			// (pack.QuotaRelevance): those the topic matches rank higher.
			r := 0.0
			if relevant(c) {
				r = normalised(c.rel, bestRel)
			}
			c.rel = recordRelevance + (1-recordRelevance)*r
			rel.Relevant++
		case relevant(c):
			c.rel = normalised(c.rel, bestRel)
			rel.Relevant++
		case scope && found > 0 && x.p.Pack != nil:
			c.rel, c.context = 0, true
			rel.Context++
		default:
			rel.Dropped++
			x.res.Dropped = append(x.res.Dropped, Dropped{ID: c.id(), Reason: "not-relevant", Detail: c.notRelevant()})
			continue
		}
		out = append(out, c)
	}
	rel.Note = relevanceNote(rel, q, &t, onTopicQuery, found)
	x.report(opRelevance, len(cands), len(out), start, rel.Note)
	return out, nil
}

// score sets c.evidence and c.rel from c.coverage (coverAll). evidence is the strongest single signal that a
// retriever found the candidate for the topic (coverage, the weighted
// cosine, graph support), judged absolutely for the floor. rel orders
// the relevant by the strongest signal too, with the BM25 score
// (normalised by the best) standing for the topic's terms, since it
// weighs their frequency, the chunk's length and how many it holds, and
// the concepts' mentions standing for its concepts.
func (x *execution) score(c *candidate, t *topic, best bests) {
	lexical := c.conceptCoverage
	if c.BM25 != nil && best.bm25 > 0 {
		lexical += t.termShare() * c.BM25.Score / best.bm25
	}
	semantic := 0.0
	if c.Vector != nil {
		semantic = x.p.Fuse.VectorWeight * max(0, c.Vector.Score)
	}
	graph := 0.0
	switch {
	case c.path != nil:
		graph = pathRelevance
	case c.boost > 0 && best.boost > 0:
		graph = graphShare * c.boost / best.boost
	}
	c.evidence = min(1, max(c.coverage, semantic, graph))
	c.rel = min(1, max(lexical, semantic, graph))
}

// docID is the candidate's document, "" for a graph path.
func docID(c *candidate) string {
	if c.chunk == nil {
		return ""
	}
	return c.chunk.Doc
}

// normalised is r relative to the best, 1 when the best is 0 (every
// relevant candidate found by coverage alone, none by BM25's score).
func normalised(r, best float64) float64 {
	if best <= 0 {
		return 1
	}
	return r / best
}

// bests are the best scores among the candidates, which score normalises
// by.
type bests struct{ bm25, boost float64 }

// notRelevant is the detail of a candidate dropped as not relevant:
// "evidence 0.0423 < 0.15 (vector #1, cosine 0.282)". Half the
// candidates are dropped, so it formats with strconv, not fmt (the same
// text: FormatFloat is what fmt's %.3g, %.2f and %.3f call).
func (c *candidate) notRelevant() string {
	b := make([]byte, 0, 96)
	b = append(b, "evidence "...)
	b = strconv.AppendFloat(b, c.evidence, 'g', 3, 64)
	b = append(b, " < "...)
	b = strconv.AppendFloat(b, minEvidence, 'g', 3, 64)
	b = append(b, " ("...)
	b = c.appendSignals(b)
	return string(append(b, ')'))
}

// appendSignals appends to b the candidate's relevance signals, such as
// "bm25 #3, coverage 0.42; vector #7, cosine 0.153", or "no signal".
func (c *candidate) appendSignals(b []byte) []byte {
	start := len(b)
	sep := func() {
		if len(b) > start {
			b = append(b, "; "...)
		}
	}
	if c.BM25 != nil {
		b = append(b, "bm25 #"...)
		b = strconv.AppendInt(b, int64(c.BM25.Rank), 10)
		b = append(b, ", coverage "...)
		b = strconv.AppendFloat(b, c.coverage, 'f', 2, 64)
	}
	if c.Vector != nil {
		sep()
		b = append(b, "vector #"...)
		b = strconv.AppendInt(b, int64(c.Vector.Rank), 10)
		b = append(b, ", cosine "...)
		b = strconv.AppendFloat(b, c.Vector.Score, 'f', 3, 64)
	}
	if c.boost > 0 {
		sep()
		b = append(b, "graph boost"...)
	}
	if len(b) == start {
		b = append(b, "no signal"...)
	}
	return b
}

// offTopic says why no chunk is relevant to a query that is not on topic.
func offTopic(q clinical.Question, t *topic) string {
	if t.total == 0 {
		return "the question has no topic to search for (only question words) and no patient filter to read a record by"
	}
	return fmt.Sprintf("the store does not know most of %q (it knows %.0f%% of the topic's weight)", q.Topic, 100*t.known/t.total)
}

// relevanceNote says what the relevance stage decided.
func relevanceNote(rel *Relevance, q clinical.Question, t *topic, onTopicQuery bool, found int) string {
	switch rel.Mode {
	case ModeRecord:
		why := "the question names no topic"
		switch {
		case q.Generic:
			why = fmt.Sprintf("the question is about the whole case (%s)", strings.Join(q.Asks, ", "))
		case t.total > 0:
			why = fmt.Sprintf("nothing in the record matches %q", q.Topic)
		}
		return fmt.Sprintf("%s: every chunk of the patient's record is evidence, %d matched the topic first", why, found)
	case ModeQuery:
		s := fmt.Sprintf("%d candidate(s) hold evidence %.2g or more for the topic %s", rel.Relevant, rel.Floor, strings.Join(t.names(), " "))
		if !onTopicQuery {
			s = fmt.Sprintf("%d graph path(s) from entities the query names; no chunk is relevant (%s)", rel.Relevant, offTopic(q, t))
		}
		if rel.Context > 0 {
			s += fmt.Sprintf("; %d more of the patient's record may fill the room left, as context", rel.Context)
		}
		return s
	}
	if !onTopicQuery {
		return "nothing relevant: " + offTopic(q, t)
	}
	return fmt.Sprintf("nothing relevant: no candidate holds evidence %.2g for the topic %s", rel.Floor, strings.Join(t.names(), " "))
}
