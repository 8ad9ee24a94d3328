package packbench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/clinical"
	"github.com/medkb/medkb/internal/text"
)

// medqaItem is one line of a MedQA JSON Lines file: USMLE (English) or
// MCMLE (Chinese, which has no realidx).
type medqaItem struct {
	RealIdx   *int              `json:"realidx"`
	line      int               // in the file, for an id when RealIdx is absent
	Question  string            `json:"question"`
	Options   map[string]string `json:"options"`
	Answer    string            `json:"answer"`     // the correct option's text
	AnswerIdx string            `json:"answer_idx"` // its letter (USMLE only)
}

// MedQASample says which MedQA vignettes MedQACases draws.
type MedQASample struct {
	// N is the sample size; 0 takes every eligible vignette.
	N int
	// Seed orders the eligible vignettes; the sample is the first N.
	Seed int64
	// Validation takes the N eligible vignettes after the sample
	// instead: disjoint from it, for choosing parameters that the sample
	// then measures.
	Validation bool
	// QuestionOnly queries with the final question and the options
	// alone, as a clinician would ask about a record, instead of the
	// whole question, vignette included.
	QuestionOnly bool
}

// MedQACases turns MedQA vignettes into cases, as the paper did.
//
// Each question is split into sentences, a heading joined to the
// sentence after it (joinHeadings); the last one that asks something
// (ends in "?" or "？") is the question, else, in Chinese, the last
// sentence (an MCMLE stem often ends in a cloze: "最可能的诊断是"), and
// the sentences before it are the vignette, one signal segment each,
// typed by clinical.SegmentType, keys by clinical.Keys. Like the paper, only
// vignettes with at least two kinds of segment and at least one T1/T2
// segment are eligible. They are visited in an order fixed by the seed
// and the sample takes the first N (or, for validation, the next N);
// the cases come back in file order. When the item names its answer
// (answer_idx, else the answer's text among the options), the case also
// asks the question sentence with the options, for the answer harness.
// A case's id is "medqa-" and the
// item's realidx, or "medqa-line" and its line number when it has none
// (so that a file mixing both cannot give two cases one id).
//
// The query is MedQA's whole question, vignette and final question, followed
// by the answer options: what a prompt for the question holds, and what the
// paper's "200 MedQA questions" are. The correct answer is not marked. The
// vignette makes the query informative: with the lexical embedder, the
// case's own sentences then score a mean cosine of 0.34 against it and other
// cases' fragments 0.12. With QuestionOnly, the final question sentence and
// the options, both score 0.07 and similarity cannot tell them apart: only
// the tiers can.
//
// A line that is not JSON is an error with its file:line, and so is a
// file none of whose vignettes is eligible; a sample smaller than N, for
// want of eligible vignettes, comes back with a warning.
func MedQACases(path string, sample MedQASample) (cases []Case, warnings []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return readMedQA(f, path, sample)
}

// readMedQA is MedQACases on r; path names it in messages.
func readMedQA(r io.Reader, path string, sample MedQASample) (cases []Case, warnings []string, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var items []medqaItem
	questions := 0
	for line := 1; sc.Scan(); line++ {
		raw := jsonLine(sc.Bytes(), line)
		if len(raw) == 0 {
			continue
		}
		var it medqaItem
		if err := json.Unmarshal(raw, &it); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %w", path, line, fieldError(err))
		}
		if it.Question != "" {
			questions++
		}
		it.line = line
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if sample.Validation && sample.N <= 0 {
		return nil, nil, fmt.Errorf("%s: a validation sample needs a size: it is the N eligible vignettes after the sample's N", path)
	}
	// Visit the items in a seeded random order and keep eligible ones
	// until the sample (and, for validation, the one after it) is full:
	// a uniform sample that only classifies the sentences it needs to.
	n, skip := sample.N, 0
	if n <= 0 {
		n = len(items)
	}
	if sample.Validation {
		skip = n
	}
	rng := rand.New(rand.NewPCG(uint64(sample.Seed), 0x6d65647161)) // "medqa"
	var picked []int
	byItem := map[int]Case{}
	eligible := 0
	for _, k := range rng.Perm(len(items)) {
		if len(picked) == n {
			break
		}
		c, ok := medqaCase(&items[k], sample.QuestionOnly)
		if ok {
			eligible++
		}
		switch {
		case !ok:
		case skip > 0:
			skip--
		default:
			picked = append(picked, k)
			byItem[k] = c
		}
	}
	after := ""
	if sample.Validation {
		after = fmt.Sprintf(" after the sample's %d", n)
	}
	switch {
	case questions == 0:
		return nil, nil, fmt.Errorf(`%s: no line has a "question": not a MedQA file (a case file goes to --cases)`, path)
	case eligible == 0:
		return nil, nil, fmt.Errorf("%s: none of %s is eligible: a stem whose sentences before the question are of two kinds or more, one of them a T1/T2 finding", path, counted(len(items), "vignette"))
	case len(picked) == 0:
		return nil, nil, fmt.Errorf("%s: no eligible vignette is left%s (eligible: %d)", path, after, eligible)
	case sample.N > 0 && len(picked) < n:
		warnings = append(warnings, fmt.Sprintf("%s: the sample has %s%s, not %d: no more are eligible", path, counted(len(picked), "vignette"), after, n))
	}
	slices.Sort(picked)
	out := make([]Case, len(picked))
	for i, k := range picked {
		out[i] = byItem[k]
	}
	return out, warnings, nil
}

// medqaCase builds the case of one item, ok false when it is not eligible.
func medqaCase(it *medqaItem, questionOnly bool) (Case, bool) {
	sents := joinHeadings(text.Sentences(it.Question))
	q := len(sents) - 1
	for q > 0 && !strings.HasSuffix(sents[q], "?") && !strings.HasSuffix(sents[q], "？") {
		q--
	}
	if q < 1 && text.Lang(it.Question) == "zh" {
		q = len(sents) - 1
	}
	if q < 1 {
		return Case{}, false
	}
	query := it.Question
	if questionOnly {
		query = sents[q]
	}
	id := fmt.Sprintf("medqa-line%d", it.line)
	if it.RealIdx != nil {
		id = fmt.Sprintf("medqa-%d", *it.RealIdx)
	}
	c := Case{ID: id, Query: medqaQuery(query, it.Options)}
	if answer := it.answerLetter(); answer != "" {
		c.Question, c.Options, c.Answer = sents[q], it.Options, answer
	}
	kinds := map[string]bool{}
	objective := false
	for i, s := range sents[:q] {
		typ := clinical.SegmentType(s)
		if typ != "" {
			kinds[typ] = true
			// The segment's tier is the type's: clinical guarantees it
			// equals what Classify's text rules would say.
			if tier, _ := clinical.TierOfType(typ); tier == base.T1 || tier == base.T2 {
				objective = true
			}
		}
		keys := clinical.Keys(s)
		if keys == nil {
			keys = []string{}
		}
		c.Segments = append(c.Segments, Segment{
			ID: fmt.Sprintf("%s/s%02d", c.ID, i), Text: s, Type: typ, Signal: true, Keys: keys,
		})
	}
	return c, len(kinds) >= 2 && objective
}

// joinHeadings prefixes every sentence that ends in a colon and holds no
// key ("Serum:", "Laboratory studies show:") to the sentence after it.
// Such a heading introduces the lines below it and has nothing of its own
// to keep, so as a segment of its own it would be an empty T2 block.
func joinHeadings(sents []string) []string {
	var out []string
	heading := ""
	for _, s := range sents {
		switch {
		case strings.HasSuffix(heading, "："):
			s = heading + s
		case heading != "":
			s = heading + " " + s
		}
		if clinical.IsHeading(s) && clinical.Keys(s) == nil {
			heading = s
			continue
		}
		heading = ""
		out = append(out, s)
	}
	if heading != "" {
		out = append(out, heading)
	}
	return out
}

func medqaQuery(question string, options map[string]string) string {
	letters := make([]string, 0, len(options))
	for k := range options {
		letters = append(letters, k)
	}
	slices.Sort(letters)
	var sb strings.Builder
	sb.WriteString(question)
	for _, k := range letters {
		fmt.Fprintf(&sb, " %s. %s", k, options[k])
	}
	return sb.String()
}

// answerLetter is the letter of the item's correct option: answer_idx,
// else the option whose text is the answer; "" when neither names an
// option (the case then asks no question).
func (it *medqaItem) answerLetter() string {
	if _, ok := it.Options[it.AnswerIdx]; ok {
		return it.AnswerIdx
	}
	for l, o := range it.Options {
		if o == it.Answer && it.Answer != "" {
			return l
		}
	}
	return ""
}
