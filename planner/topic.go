package planner

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/medkb/medkb/internal/clinical"
)

// idf is BM25's inverse document frequency, ln(1 + (N - df + 0.5) / (df + 0.5)).
func idf(df, n uint64) float64 {
	d := float64(min(df, n))
	return math.Log(1 + (float64(n)-d+0.5)/(d+0.5))
}

// unit is one part of a question's topic: a term (a stem, a number, a
// CJK bigram) or a named concept, which a text holds when it holds any
// of the concept's names or members.
type unit struct {
	term    string
	concept *clinical.Concept
	weight  float64
	known   bool // the store holds it (a concept always counts as known)
}

// topic is a question's topic as weighted units: their total weight, and
// the weight of those the store knows.
type topic struct {
	units []unit
	total float64
	known float64
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
// and concepts the share of its concepts weighed by how often the text
// mentions them (m mentions count m/(m+1), as BM25 saturates a term's
// frequency: a lab report that names 血红蛋白 and 平均红细胞体积 is more
// about anaemia than a note that names one). holds says whether the text
// holds term unit i's term; txt is the text as BM25 indexed it (heading
// and text), for concepts.
func (t *topic) coverage(txt string, holds func(unit int) bool) (share, concepts float64) {
	if t.total == 0 {
		return 0, 0
	}
	var folded clinical.Text // txt for Mentions, made at the first concept unit
	made := false
	for i, u := range t.units {
		switch {
		case u.concept != nil:
			if !made {
				folded, made = clinical.NewText(txt), true
			}
			if m := u.concept.Mentions(folded); m > 0 {
				share += u.weight
				concepts += u.weight * float64(m) / float64(m+1)
			}
		case holds(i):
			share += u.weight
		}
	}
	return share / t.total, concepts / t.total
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

// coverAll sets the coverage of every candidate: a chunk's term units
// from what the BM25 arm said its hit holds or else from the BM25
// postings (bm25.Index.Holds), a path's from its analysed text, concepts
// from the text. When the plan has a BM25 arm, a chunk it did not return
// holds no term unit: it holds none of the query's terms, or scored below
// the arm's k, so BM25 did not find it (and the postings of a hundred
// candidates cost a millisecond on a 100k store).
func (x *execution) coverAll(ctx context.Context, t *topic, cands []*candidate) error {
	terms := t.termUnits()
	lexicalArm := hasArm(x.p, "bm25")
	// known reports whether the BM25 hit says which of the topic's terms
	// it holds (the topic's terms are the query's, as a rule).
	known := func(c *candidate) bool {
		if c.BM25 == nil {
			return false
		}
		for _, term := range terms {
			if _, ok := c.bm25Held.has(term); !ok {
				return false
			}
		}
		return true
	}
	var ords []uint64
	for _, c := range cands {
		if c.path == nil && !known(c) && (c.BM25 != nil || !lexicalArm) {
			ords = append(ords, c.chunk.Ord)
		}
	}
	holds, err := x.env.BM25.Holds(ctx, terms, ords)
	if err != nil {
		return err
	}
	k := 0
	for i, c := range cands {
		if i%checkEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		var has func(int) bool
		switch {
		case c.path != nil:
			pathTerms := x.env.BM25.Terms(c.text())
			has = func(i int) bool { return slices.Contains(pathTerms, terms[i]) }
		case known(c):
			held := c.bm25Held
			has = func(i int) bool { h, _ := held.has(terms[i]); return h }
		case c.BM25 != nil || !lexicalArm:
			row := holds[k]
			k++
			has = func(i int) bool { return row[i] }
		default:
			has = func(int) bool { return false }
		}
		c.coverage, c.conceptCoverage = t.coverage(c.text(), has)
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
