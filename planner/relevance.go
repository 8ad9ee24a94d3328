package planner

import (
	"os"
	"strconv"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/medkb/medkb/internal/clinical"
)

// RelevanceFloor is the least relevance that makes a candidate evidence
// for the query (see judge).
const RelevanceFloor = 0.3

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
	// Terms the topic's weighted terms (BM25's analysis: stems, CJK
	// bigrams), Generic the words that made the question generic.
	Topic   string   `json:"topic"`
	Terms   []string `json:"terms"`
	Generic []string `json:"generic,omitempty"`
	Floor   float64  `json:"floor"`
	// Relevant candidates reached the floor (or belong to the record in
	// ModeRecord); Context ones are the rest of a patient's record, which
	// PACK may use for room that relevant evidence leaves (as weak
	// blocks: no quota, no floor); Dropped ones are not evidence.
	Relevant int `json:"relevant"`
	Context  int `json:"context"`
	Dropped  int `json:"dropped"`
	// Note says in words what happened, and why when nothing is relevant.
	Note string `json:"note"`
}

// Relevance scores, per candidate (candidate.rel, before judge
// normalises it by the best):
//
//	lexical  = coverage * (1 + bm25 / best bm25) / 2
//	semantic = w * max(0, cosine)
//	graph    = pathRelevance for a path; graphShare * boost / best boost for a chunk
//	rel      = min(1, max(lexical, semantic, graph))
//
// coverage is the share of the topic's information the chunk holds (see
// topic). w is the vector arm's fusion weight (the embedder's trust: 0.15
// for the lexical hash embedder, 1 for a semantic model).
const (
	pathRelevance = 0.5 // a graph path anchored on the query's entities
	graphShare    = 0.5 // a chunk naming the most path entities
	// minRelevance, bestShare and informativeShare make the floor: a
	// candidate is relevant when its evidence (coverage, or the semantic
	// or graph score) reaches minRelevance and either bestShare of the
	// best candidate's or, for coverage, holds an informative unit of the
	// topic, one that weighs at least informativeShare of the heaviest:
	// a question that asks two things ("血钾多少？心电图有没有改变？") is
	// answered by two reports that each cover half of it.
	minRelevance     = 0.15
	bestShare        = 0.5
	informativeShare = 0.5
	// onTopic is the least share of the topic's weight that the store
	// knows (see topic.known) for anything to be relevant.
	onTopic = 0.5
	// recordRelevance is the relevance of a record's chunk in ModeRecord,
	// and the base of those the topic matches: half of the most relevant,
	// so that the tier quota (pack.QuotaRelevance) applies to every one.
	recordRelevance = 0.5
)

// unit is one part of a question's topic: a term (a stem, a number, a
// CJK bigram) or a named concept, which a text holds when it holds any
// of the concept's names or members.
type unit struct {
	term    string
	concept *clinical.Concept
	weight  float64
	known   bool // the store holds it (a concept always counts as known)
}

// topic is a question's topic as weighted units.
type topic struct {
	units    []unit
	total    float64
	known    float64
	heaviest float64
}

// idf is BM25's inverse document frequency, ln(1 + (N - df + 0.5) / (df + 0.5)).
func idf(df, n uint64) float64 {
	d := float64(min(df, n))
	return math.Log(1 + (float64(n)-d+0.5)/(d+0.5))
}

// readTopic weighs the question's topic terms and concepts by their idf
// in the store. A Latin term the store has never seen weighs as much as
// the known terms do on average (the highest weight when none is known):
// a word the question needs and no chunk holds ("bicycle"), neither
// rarer than the question's own known words (a small store does not know
// many plain words of a spoken question: "when he came in") nor free. A
// CJK bigram the store has never seen is left out: it is mostly a span
// across two words of the question ("胸痛伴" makes 痛伴), which no text
// holds. A concept weighs what the words that named it weigh: their best
// known term's idf, or the highest weight when the store knows none of
// them.
func (x *execution) readTopic(ctx context.Context, q clinical.Question) (topic, error) {
	var t topic
	add := func(u unit) {
		t.units = append(t.units, u)
		t.total += u.weight
		t.heaviest = max(t.heaviest, u.weight)
		if u.known {
			t.known += u.weight
		}
	}
	if strings.TrimSpace(q.Topic) != "" {
		terms, n, err := x.env.BM25.QueryTerms(ctx, q.Topic)
		if err != nil {
			return t, err
		}
		var unknown []string
		for _, term := range terms {
			switch {
			case term.DF > 0:
				add(unit{term: term.Text, weight: idf(term.DF, n), known: true})
			case !term.CJK:
				unknown = append(unknown, term.Text)
			}
		}
		w := idf(0, n)
		if len(t.units) > 0 {
			w = t.total / float64(len(t.units))
		}
		for _, term := range unknown {
			add(unit{term: term, weight: w})
		}
	}
	for _, c := range q.Concepts {
		terms, n, err := x.env.BM25.QueryTerms(ctx, c.Words)
		if err != nil {
			return t, err
		}
		w := 0.0
		for _, term := range terms {
			if term.DF > 0 {
				w = max(w, idf(term.DF, n))
			}
		}
		if w == 0 {
			w = idf(0, n)
		}
		add(unit{concept: c.Concept, weight: w, known: true})
	}
	return t, nil
}

// coverage is the weight share of the topic's units that a text holds,
// the share of those that are concepts, and whether it holds an
// informative unit (weighing at least half the heaviest). holds says
// whether the text holds a term unit's term; txt is the text as BM25
// indexed it (heading and text), for concepts.
func (t *topic) coverage(txt string, holds func(unit int) bool) (share, concepts float64, informative bool) {
	if t.total == 0 {
		return 0, 0, false
	}
	for i, u := range t.units {
		switch {
		case u.concept != nil && u.concept.Matches(txt):
			concepts += u.weight
		case u.concept == nil && holds(i):
			share += u.weight
		default:
			continue
		}
		informative = informative || u.weight >= informativeShare*t.heaviest
	}
	share += concepts
	return share / t.total, concepts / t.total, informative
}

// termShare is the term units' share of the topic's weight.
func (t *topic) termShare() float64 {
	if t.total == 0 {
		return 0
	}
	w := 0.0
	for _, u := range t.units {
		if u.concept == nil {
			w += u.weight
		}
	}
	return w / t.total
}

// termUnits lists the term units' terms; the i-th is unit i's when every
// term unit comes before the concept units, as readTopic adds them.
func (t *topic) termUnits() []string {
	var terms []string
	for _, u := range t.units {
		if u.concept == nil {
			terms = append(terms, u.term)
		}
	}
	return terms
}

// hasConcepts reports whether the topic names a concept.
func (t *topic) hasConcepts() bool {
	return len(t.units) > 0 && t.units[len(t.units)-1].concept != nil
}

// coverAll sets the coverage of every candidate: a chunk's term units
// from the BM25 postings (bm25.Index.Holds), a path's from its analysed
// text, concepts from the text with its heading.
func (x *execution) coverAll(ctx context.Context, t *topic, cands []*candidate) error {
	if t.hasConcepts() {
		if err := x.headings(cands); err != nil {
			return err
		}
	}
	terms := t.termUnits()
	var ords []uint64
	for _, c := range cands {
		if c.path == nil {
			ords = append(ords, c.chunk.Ord)
		}
	}
	holds, err := x.env.BM25.Holds(ctx, terms, ords)
	if err != nil {
		return err
	}
	k := 0
	for _, c := range cands {
		txt := c.text()
		if c.heading != "" {
			txt = c.heading + "\n" + txt // as BM25 indexed it
		}
		var has func(int) bool
		if c.path == nil {
			row := holds[k]
			k++
			has = func(i int) bool { return row[i] }
		} else {
			pathTerms := x.env.BM25.Terms(txt)
			has = func(i int) bool { return slices.Contains(pathTerms, terms[i]) }
		}
		c.coverage, c.conceptCoverage, c.informative = t.coverage(txt, has)
	}
	return nil
}

// names lists the units for a report.
func (t *topic) names() []string {
	out := make([]string, len(t.units))
	for i, u := range t.units {
		out[i] = u.term
		if u.concept != nil {
			out[i] = "concept:" + u.concept.Name
		}
	}
	return out
}

// judge decides which candidates are evidence for the query, scores
// their relevance (c.rel, for PACK: relative to the best candidate's, so
// 1 for the best) and returns the candidates that go on, in fused order:
// relevant ones, and in a patient's record the rest as context
// (c.context). The others are reported as dropped, reason "not-relevant".
//
// A candidate is relevant when a retriever really found it for the
// topic: its relevance reaches minRelevance and bestShare of the best
// candidate's. The vector arm's bare presence proves nothing (it always
// returns k chunks, however unrelated), and the hash embedder's cosines
// are too noisy to prove anything alone. Nothing is relevant when the
// store knows less than onTopic of the topic's weight ("how to adjust
// bicycle brakes" in a clinical store).
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
	q := x.question
	t, err := x.readTopic(ctx, q)
	if err != nil {
		return nil, err
	}
	rel := &x.res.Relevance
	*rel = Relevance{Topic: q.Topic, Terms: t.names(), Generic: q.Asks, Floor: minRelevance}
	bestBM25, bestBoost := 0.0, 0.0
	for _, c := range cands {
		if c.BM25 != nil {
			bestBM25 = max(bestBM25, c.BM25.Score)
		}
		bestBoost = max(bestBoost, c.boost)
	}
	onTopicQuery := t.total > 0 && t.known >= onTopic*t.total
	bestEvidence, bestRel := 0.0, 0.0
	for i, c := range cands {
		c.zzRank = i
		if c.Vector != nil {
			x.zzBestCos = max(x.zzBestCos, c.Vector.Score)
		}
	}
	if onTopicQuery {
		if err := x.coverAll(ctx, &t, cands); err != nil {
			return nil, err
		}
		for _, c := range cands {
			x.score(c, &t, bestBM25, bestBoost)
			bestEvidence, bestRel = max(bestEvidence, c.evidence), max(bestRel, c.rel)
		}
	}
	floor := max(minRelevance, bestShare*bestEvidence)
	scope := x.p.onePatient()
	relevant := func(c *candidate) bool {
		if !onTopicQuery {
			return false
		}
		if x.p.Pack == nil { // a ranked list keeps every real hit
			return c.BM25 != nil || c.coverage > 0 || c.evidence >= minRelevance
		}
		return c.evidence >= minRelevance
	}
	found := 0
	for _, c := range cands {
		if relevant(c) {
			found++
		}
	}
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
				r = c.rel / bestRel
			}
			c.rel = recordRelevance + (1-recordRelevance)*r
			rel.Relevant++
		case relevant(c):
			c.rel /= bestRel
			rel.Relevant++
		case scope && found > 0 && x.p.Pack != nil:
			c.rel, c.context = 0, true
			rel.Context++
		default:
			rel.Dropped++
			x.res.Dropped = append(x.res.Dropped, Dropped{ID: c.id(), Reason: "not-relevant",
				Detail: fmt.Sprintf("evidence %.3g < %.3g (%s)", c.evidence, floor, c.signals())})
			continue
		}
		out = append(out, c)
	}
	rel.Floor = floor
	rel.Note = x.relevanceNote(q, &t, onTopicQuery, found)
	x.report(opRelevance, len(cands), len(out), start, rel.Note)
	return out, nil
}

// score sets c.evidence and c.rel from c.coverage (coverAll; see the
// constants above unit): evidence is the strongest single signal that a
// retriever found the candidate for the topic (coverage, semantic,
// graph), rel the same with coverage weighed by the BM25 score, which
// orders the relevant.
func (x *execution) score(c *candidate, t *topic, bestBM25, bestBoost float64) {
	lexical := c.conceptCoverage
	if c.BM25 != nil && bestBM25 > 0 {
		lexical += t.termShare() * c.BM25.Score / bestBM25
	}
	other := 0.0
	if c.Vector != nil {
		other = x.p.Fuse.VectorWeight * max(0, c.Vector.Score)
	}
	switch {
	case c.path != nil:
		other = max(other, pathRelevance)
	case c.boost > 0 && bestBoost > 0:
		other = max(other, graphShare*c.boost/bestBoost)
	}
	c.evidence = min(1, max(c.coverage, other))
	c.rel = min(1, max(lexical, other))
	if t := os.Getenv("ZZRANK"); t != "" {
		tau, _ := strconv.ParseFloat(t, 64)
		c.rel = min(1, max(lexical, math.Exp(-float64(c.zzRank)/tau)))
	}
	if os.Getenv("ZZVEC") != "" && c.Vector != nil && x.zzBestCos > 0 {
		w, _ := strconv.ParseFloat(os.Getenv("ZZVEC"), 64)
		c.rel = min(1, lexical+w*max(0, c.Vector.Score)/x.zzBestCos)
	}
}

// headings reads the headings of the chunks, which BM25 indexed with
// their text.
func (x *execution) headings(cands []*candidate) error {
	var ids []string
	var which []*candidate
	for _, c := range cands {
		if c.path == nil {
			ids = append(ids, c.chunk.Doc)
			which = append(which, c)
		}
	}
	docs, err := x.env.Store.Docs(ids)
	if err != nil {
		return err
	}
	for i, d := range docs {
		if d != nil {
			which[i].heading = d.Heading()
		}
	}
	return nil
}

// signals describes a candidate's relevance signals for a drop detail.
func (c *candidate) signals() string {
	var s []string
	if c.BM25 != nil {
		s = append(s, fmt.Sprintf("bm25 #%d, coverage %.2f", c.BM25.Rank, c.coverage))
	}
	if c.Vector != nil {
		s = append(s, fmt.Sprintf("vector #%d, cosine %.3f", c.Vector.Rank, c.Vector.Score))
	}
	if c.boost > 0 {
		s = append(s, "graph boost")
	}
	if len(s) == 0 {
		return "no signal"
	}
	return strings.Join(s, "; ")
}

// relevanceNote says what the relevance stage decided.
func (x *execution) relevanceNote(q clinical.Question, t *topic, onTopicQuery bool, found int) string {
	rel := &x.res.Relevance
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
		s := fmt.Sprintf("%d candidate(s) reach relevance %.2g for the topic %s", rel.Relevant, rel.Floor, strings.Join(t.names(), " "))
		if rel.Context > 0 {
			s += fmt.Sprintf("; %d more of the patient's record may fill the room left, as context", rel.Context)
		}
		return s
	}
	switch {
	case t.total == 0:
		return "nothing relevant: the question has no topic to search for (only question words) and no patient filter to read a record by"
	case !onTopicQuery:
		return fmt.Sprintf("nothing relevant: the store does not know most of %q (it knows %.0f%% of the topic's weight)", q.Topic, 100*t.known/t.total)
	}
	return fmt.Sprintf("nothing relevant: no candidate reaches relevance %.2g for the topic %s", rel.Floor, strings.Join(t.names(), " "))
}
