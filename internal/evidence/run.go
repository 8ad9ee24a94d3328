package evidence

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/dsl"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/tempstore"
	"github.com/medkb/medkb/internal/text"
	"github.com/medkb/medkb/planner/pack"
)

// The oracle rows of a report, beside the strategies.
const (
	// OracleWhole packs the most evidence items whose documents fit the
	// window whole, in full text.
	OracleWhole = "oracle-whole"
	// OracleB is OracleWhole with each chunk in state B where B keeps the
	// quotes its full text holds and costs less.
	OracleB = "oracle-b"
)

// Set is what Run measures: the corpus and the questions over it.
type Set struct {
	Docs      []base.Doc
	Questions []Question
	// Copies maps an injected copy's document id to its original's
	// (AddDuplicates); recall counts a packed copy for the original.
	Copies map[string]string
}

// Config says which windows and strategies Run measures.
type Config struct {
	// Windows are the token budgets, ascending.
	Windows []int
	// Strategies are names the query language knows (pack.Strategies).
	Strategies []string
	// Now, when set, is the PACK clause's "now", the reference day of
	// time decay; "" leaves the statement without it (today).
	Now string
	// Reliability is PACK's reliability weight; 0 leaves it out.
	Reliability float64
}

// DefaultConfig measures every strategy at 64, 128, 256 and 512 tokens.
func DefaultConfig() Config {
	c := Config{Windows: []int{64, 128, 256, 512}}
	for _, s := range pack.Strategies {
		c.Strategies = append(c.Strategies, s.String())
	}
	return c
}

// Report is what Run measured. Recall values are shares in [0, 1].
type Report struct {
	Questions     int      `json:"questions"`
	EvidenceItems int      `json:"evidence_items"`
	Documents     int      `json:"documents"`
	Chunks        int      `json:"chunks"`
	Windows       []int    `json:"windows"`
	Strategies    []string `json:"strategies"`
	// Groups: "all" first, then each kind and each language when the
	// questions mix them.
	Groups []Group `json:"groups"`
	// Refused counts, per strategy and window, the questions whose query
	// failed with pack.ErrTooLarge (strategy exact); the group means
	// leave them out there.
	Refused  map[string]map[string]int `json:"refused,omitempty"`
	Warnings []string                  `json:"warnings,omitempty"`
	// PerQuestion holds each question's own recall and fits.
	PerQuestion   []QuestionResult `json:"per_question"`
	Queries       int              `json:"queries"`
	IngestSeconds float64          `json:"ingest_seconds"`
	QuerySeconds  float64          `json:"query_seconds"`
}

// Group is the mean recall over some of the questions.
type Group struct {
	Name          string `json:"name"`
	Questions     int    `json:"questions"`
	EvidenceItems int    `json:"evidence_items"`
	// Recall is the mean over the group's questions of the share of their
	// evidence items recalled, per row (a strategy, OracleWhole or
	// OracleB) and window.
	Recall map[string]map[string]float64 `json:"recall"`
	// Fits is, per window, the share of the group's questions whose
	// evidence documents all fit the window whole at once.
	Fits map[string]float64 `json:"fits"`
}

// QuestionResult is one question's measurement.
type QuestionResult struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Lang     string `json:"lang"`
	Evidence int    `json:"evidence_items"`
	// Recall is the share of its evidence recalled, per row and window;
	// absent where the strategy refused.
	Recall map[string]map[string]float64 `json:"recall"`
	Fits   map[string]bool               `json:"fits"`
}

// Run ingests the set's documents into a temporary store and, for each
// question, window and strategy, runs RETRIEVE "<question>" [WHERE
// patient = "..."] PACK budget W strategy S [now "..."] through the
// public API, then scores the packed items and the oracles.
func Run(ctx context.Context, set *Set, cfg Config) (*Report, error) {
	if len(set.Questions) == 0 {
		return nil, errors.New("no question to measure")
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	byID := make(map[string]*base.Doc, len(set.Docs))
	for i := range set.Docs {
		d := &set.Docs[i]
		if byID[d.ID] != nil {
			return nil, fmt.Errorf("document id %q is given twice", d.ID)
		}
		byID[d.ID] = d
	}
	if err := Check(set.Questions, byID); err != nil {
		return nil, err
	}
	db, err := tempstore.Open(ctx, "medkb-evidence-", set.Docs)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rep := &Report{Questions: len(set.Questions), Documents: len(set.Docs), Windows: cfg.Windows,
		Strategies: cfg.Strategies, IngestSeconds: db.Ingest.Seconds()}
	st, err := db.Stats()
	if err != nil {
		return nil, err
	}
	rep.Chunks = st.Chunks
	tok, err := text.NewTokenizer()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	for i := range set.Questions {
		q := &set.Questions[i]
		rep.EvidenceItems += len(q.Evidence)
		qr, err := measure(ctx, db.DB, q, set.Copies, cfg, tok.Count, rep)
		if err != nil {
			return nil, fmt.Errorf("%s: question %q: %w", q.Pos, q.ID, err)
		}
		rep.PerQuestion = append(rep.PerQuestion, qr)
	}
	rep.QuerySeconds = time.Since(start).Seconds()
	rep.Groups = groups(rep.PerQuestion, cfg)
	return rep, nil
}

func (c *Config) check() error {
	if len(c.Windows) == 0 || len(c.Strategies) == 0 {
		return errors.New("no window or no strategy to measure")
	}
	for i, w := range c.Windows {
		if w < 1 || i > 0 && w <= c.Windows[i-1] {
			return fmt.Errorf("windows %v: want positive budgets in ascending order", c.Windows)
		}
	}
	for i, s := range c.Strategies {
		if _, err := pack.ParseStrategy(s); err != nil {
			return err
		}
		if slices.Contains(c.Strategies[:i], s) {
			return fmt.Errorf("strategy %s given twice", s)
		}
	}
	return nil
}

// measure runs one question at every window and strategy and prices its
// oracles.
func measure(ctx context.Context, db *medkb.DB, q *Question, copies map[string]string, cfg Config, count func(string) int, rep *Report) (QuestionResult, error) {
	qr := QuestionResult{ID: q.ID, Kind: q.Kind, Lang: text.Lang(q.Question), Evidence: len(q.Evidence),
		Recall: map[string]map[string]float64{}, Fits: map[string]bool{}}
	for _, s := range cfg.Strategies {
		qr.Recall[s] = map[string]float64{}
		for _, w := range cfg.Windows {
			win := strconv.Itoa(w)
			res, err := db.Query(ctx, statement(q, w, s, cfg))
			rep.Queries++
			if errors.Is(err, pack.ErrTooLarge) {
				rep.refuse(s, win)
				continue
			}
			if err != nil {
				return qr, err
			}
			qr.Recall[s][win] = float64(recalled(q, res.Items, copies)) / float64(len(q.Evidence))
		}
	}
	ids := make([]string, 0, len(q.Evidence))
	for _, it := range q.Evidence {
		ids = append(ids, it.Doc)
	}
	shown, err := db.Show(ids)
	if err != nil {
		return qr, err
	}
	views := make(map[string]*medkb.DocView, len(shown))
	for i := range shown {
		views[shown[i].ID] = &shown[i]
	}
	docs, warnings, err := oracleDocs(q, views, count)
	if err != nil {
		return qr, err
	}
	rep.Warnings = append(rep.Warnings, warnings...)
	qr.Recall[OracleWhole], qr.Recall[OracleB] = map[string]float64{}, map[string]float64{}
	n := float64(len(q.Evidence))
	for _, w := range cfg.Windows {
		win := strconv.Itoa(w)
		qr.Recall[OracleWhole][win] = float64(mostItems(docs, func(d oracleDoc) int { return d.whole }, w)) / n
		qr.Recall[OracleB][win] = float64(mostItems(docs, func(d oracleDoc) int { return d.withB }, w)) / n
		qr.Fits[win] = allFit(docs, w)
	}
	return qr, nil
}

func (r *Report) refuse(strategy, win string) {
	if r.Refused == nil {
		r.Refused = map[string]map[string]int{}
	}
	if r.Refused[strategy] == nil {
		r.Refused[strategy] = map[string]int{}
	}
	r.Refused[strategy][win]++
}

// statement is the query a question runs at one window and strategy.
func statement(q *Question, window int, strategy string, cfg Config) string {
	var b strings.Builder
	b.WriteString("RETRIEVE " + dsl.Quote(q.Question))
	if q.Patient != "" {
		b.WriteString(" WHERE patient = " + dsl.Quote(q.Patient))
	}
	fmt.Fprintf(&b, " PACK budget %d strategy %s", window, strategy)
	if cfg.Reliability > 0 {
		fmt.Fprintf(&b, " reliability %g", cfg.Reliability)
	}
	if cfg.Now != "" {
		b.WriteString(" now " + dsl.Quote(cfg.Now))
	}
	return b.String()
}

// recalled counts q's evidence items that the packed items recall: an
// item of the document whose packed text holds the quote (both folded,
// text.FoldKey), or any item of the document for an item without one. A
// packed copy of a document (copies: copy -> original) counts as the
// document.
func recalled(q *Question, items []medkb.Item, copies map[string]string) int {
	packed := map[string][]string{} // document -> its packed texts, folded
	for _, it := range items {
		if doc := cmp.Or(copies[it.Doc], it.Doc); doc != "" {
			packed[doc] = append(packed[doc], text.FoldKey(it.Text))
		}
	}
	n := 0
	for _, ev := range q.Evidence {
		texts := packed[ev.Doc]
		quote := text.FoldKey(ev.Quote)
		if slices.ContainsFunc(texts, func(t string) bool { return strings.Contains(t, quote) }) {
			n++
		}
	}
	return n
}
