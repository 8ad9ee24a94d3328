package packbench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/medkb/medkb/internal/hook"
	"github.com/medkb/medkb/planner/pack"
)

// question is a case's multiple-choice question, for the answer-accuracy
// harness.
type question struct {
	text    string
	letters []string // the options' letters, sorted
	options map[string]string
	answer  string   // the correct letter
	record  []string // the case's own segments, in its order: the full record
}

// caseQuestion is c's question, nil when it has none; c is the case as
// given, before noise, whose segments are the full record.
func caseQuestion(c *Case) *question {
	if c.Question == "" {
		return nil
	}
	q := &question{text: c.Question, letters: slices.Sorted(maps.Keys(c.Options)), options: c.Options, answer: c.Answer}
	for _, seg := range c.Segments {
		q.record = append(q.record, seg.Text)
	}
	return q
}

// FullRecord names the prompts that carry a case's whole record, the
// reference of APR, where the other prompts name a strategy.
const FullRecord = "full"

// Prompt is one request of the answer-accuracy harness: the packed
// context of one case by one strategy at one window (or the case's full
// record), then its question and options.
type Prompt struct {
	ID       string         `json:"id"` // case/strategy/window, or case/full
	Case     string         `json:"case"`
	Strategy string         `json:"strategy"` // a strategy's name, or FullRecord
	Window   int            `json:"window,omitempty"`
	Answer   string         `json:"answer"`  // the correct letter
	Letters  []string       `json:"letters"` // the letters a reply may choose
	Messages []hook.Message `json:"messages"`
}

// answerSystem is the system message of every prompt; answerUser formats
// the user message: the record, one block a line, then the question and
// its options. Both are quoted in docs/benchmarks.md.
const (
	answerSystem = `You answer multiple-choice medical questions about a patient. Use the patient record given; it may be incomplete and may hold lines about other matters. Reply with the letter of the single best option and nothing else.`
	answerUser   = "Patient record:\n%s\nQuestion: %s\n%s\nAnswer with one letter."
)

// AnswerStrategies are the strategies the harness asks about by default:
// every strategy but Exact, which refuses large cases and optimises the
// same utility as Ebm.
func AnswerStrategies() []pack.Strategy {
	var out []pack.Strategy
	for _, st := range pack.Strategies {
		if st != pack.Exact {
			out = append(out, st)
		}
	}
	return out
}

// Prompts packs every case that has a question with every strategy at
// every window of cfg (nil Strategies means AnswerStrategies) and
// returns one prompt per (case, strategy, window), then one per case
// with its full record, in case order. It is an error when no case has
// a question.
func (s *Suite) Prompts(cfg Config) ([]Prompt, error) {
	if cfg.Strategies == nil {
		cfg.Strategies = AnswerStrategies()
	}
	if err := cfg.fill(); err != nil {
		return nil, err
	}
	var pk pack.Packer
	var out []Prompt
	for i := range s.cases {
		c := &s.cases[i]
		q := c.question
		if q == nil {
			continue
		}
		p := cfg.Params
		p.Now, p.Count = c.now, s.count
		for _, w := range cfg.Windows {
			p.Budget = w
			for _, st := range cfg.Strategies {
				p.Strategy = st
				res, err := pk.Pack(c.cands, p)
				if err != nil {
					return nil, fmt.Errorf("case %q: %s at %d: %w", c.id, st, w, err)
				}
				blocks := make([]string, len(res.Items))
				for k, it := range res.Items {
					blocks[k] = it.Text
				}
				out = append(out, q.prompt(c.id, st.String(), w, blocks))
			}
		}
		out = append(out, q.prompt(c.id, FullRecord, 0, q.record))
	}
	if len(out) == 0 {
		return nil, errors.New(`no case has a question: the answer harness needs MedQA (--medqa) or case lines with "question", "options" and "answer"`)
	}
	return out, nil
}

// prompt is the request for blocks of context, given in reading order.
func (q *question) prompt(caseID, strategy string, window int, blocks []string) Prompt {
	id := caseID + "/" + strategy
	if window > 0 {
		id += "/" + strconv.Itoa(window)
	}
	var record, options strings.Builder
	for _, b := range blocks {
		fmt.Fprintf(&record, "- %s\n", strings.Join(strings.Fields(b), " "))
	}
	if len(blocks) == 0 {
		record.WriteString("(nothing)\n")
	}
	for _, l := range q.letters {
		fmt.Fprintf(&options, "%s. %s\n", l, q.options[l])
	}
	return Prompt{ID: id, Case: caseID, Strategy: strategy, Window: window, Answer: q.answer, Letters: q.letters,
		Messages: []hook.Message{
			{Role: "system", Content: answerSystem},
			{Role: "user", Content: fmt.Sprintf(answerUser, record.String(), q.text, options.String())},
		}}
}

// WritePrompts writes prompts as JSON Lines, one object a prompt with
// its id, case, strategy, window, correct answer, letters and the chat
// messages, so that they can be run elsewhere and scored by the answer.
func WritePrompts(w io.Writer, prompts []Prompt) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range prompts {
		if err := enc.Encode(&prompts[i]); err != nil {
			return err
		}
	}
	return nil
}

// Asker sends one prompt's messages to a model and returns its reply.
type Asker func(ctx context.Context, messages []hook.Message) (string, error)

// ChatAsker asks model on an OpenAI-compatible chat endpoint (ep.URL is
// the full .../chat/completions address).
func ChatAsker(ep hook.Endpoint, model string) Asker {
	return func(ctx context.Context, messages []hook.Message) (string, error) {
		return ep.Chat(ctx, model, messages)
	}
}

// AnswerReport is the answer accuracy of each strategy at each window
// and with the full record, and APR, accuracy over the full record's.
// Maps are keyed by strategy name, then window ("512"); fractions are
// 0..1. APR is left out when the full record answered nothing right.
type AnswerReport struct {
	Cases    int                           `json:"cases"`
	Full     float64                       `json:"full_record_accuracy"`
	Accuracy map[string]map[string]float64 `json:"accuracy"`
	APR      map[string]map[string]float64 `json:"apr,omitempty"`
	// Requests counts the prompts sent: identical prompts (a case small
	// enough that two strategies pack the same blocks) are asked once.
	Requests int `json:"requests"`
	// Unparsed counts the prompts whose reply chose no option (a reply
	// shared by identical prompts counts for each); they count as wrong.
	Unparsed   int      `json:"unparsed"`
	Windows    []int    `json:"windows"`
	Strategies []string `json:"strategies"`
}

// Answer asks every prompt, on workers goroutines, grades each reply by
// the option it chooses (ChosenOption) and reports accuracy and APR. An
// identical prompt is asked once. The first failed request (a server
// that is down, too slow, or answers what is not a chat reply) stops the
// run and is returned: a broken endpoint must not pass for a model that
// answers wrong.
func Answer(ctx context.Context, prompts []Prompt, ask Asker, workers int) (*AnswerReport, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	unique := map[string]int{} // user message -> index into first
	var first []int            // the first prompt of each distinct user message
	which := make([]int, len(prompts))
	for i, p := range prompts {
		key := p.Messages[len(p.Messages)-1].Content
		k, ok := unique[key]
		if !ok {
			k = len(first)
			unique[key] = k
			first = append(first, i)
		}
		which[i] = k
	}
	replies := make([]string, len(first))
	var once sync.Once
	var failed error
	parallelOn(max(workers, 1), len(first), func(_, k int) {
		if ctx.Err() != nil {
			return
		}
		reply, err := ask(ctx, prompts[first[k]].Messages)
		if err != nil {
			once.Do(func() { failed = err; cancel() })
			return
		}
		replies[k] = reply
	})
	if failed != nil {
		return nil, failed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return grade(prompts, which, replies, len(first)), nil
}

// grade turns the replies (replies[which[i]] answers prompts[i]) into
// the report.
func grade(prompts []Prompt, which []int, replies []string, requests int) *AnswerReport {
	type tally struct{ right, asked int }
	by := map[string]map[int]*tally{}
	cases := map[string]bool{}
	r := &AnswerReport{Requests: requests, Accuracy: map[string]map[string]float64{}, APR: map[string]map[string]float64{}}
	var full tally
	for i, p := range prompts {
		chosen := ChosenOption(replies[which[i]], p.Letters)
		if chosen == "" {
			r.Unparsed++
		}
		right := 0
		if chosen == p.Answer {
			right = 1
		}
		cases[p.Case] = true
		if p.Strategy == FullRecord {
			full.right += right
			full.asked++
			continue
		}
		if by[p.Strategy] == nil {
			by[p.Strategy] = map[int]*tally{}
			r.Strategies = append(r.Strategies, p.Strategy)
		}
		t := by[p.Strategy][p.Window]
		if t == nil {
			t = &tally{}
			by[p.Strategy][p.Window] = t
		}
		t.right += right
		t.asked++
	}
	r.Cases = len(cases)
	r.Full = fraction(full.right, full.asked)
	windows := map[int]bool{}
	for st, perWindow := range by {
		acc, apr := map[string]float64{}, map[string]float64{}
		for w, t := range perWindow {
			windows[w] = true
			a := fraction(t.right, t.asked)
			acc[strconv.Itoa(w)] = a
			if r.Full > 0 {
				apr[strconv.Itoa(w)] = a / r.Full
			}
		}
		r.Accuracy[st] = acc
		if len(apr) > 0 {
			r.APR[st] = apr
		}
	}
	r.Windows = slices.Sorted(maps.Keys(windows))
	return r
}

// The shapes of a reply that chooses an option: the letter alone,
// bracketed or emphasised ("B", "(B)", "**B**", "B."); a labelled option
// ("B. Tell the attending", "C) ...", "D: ..."); an answer statement
// ("The answer is B", "Answer: (C)", "答案：C").
var (
	letterAlone     = regexp.MustCompile(`^[\s*("'\[]*([A-Z])[\s*)"'\].。]*$`)
	letterLabel     = regexp.MustCompile(`^[\s*("'\[]*([A-Z])[*)\]]*\s*[.):：]`)
	answerStatement = regexp.MustCompile(`(?:(?i:answer)(?:\s+is)?|答案(?:是|为)?)\s*[:：]?\s*[*("'\[]*([A-Z])\b`)
)

// ChosenOption reads which of letters a reply chooses, "" when it names
// none of them: the letter alone, a labelled option at its start, or an
// answer statement anywhere, in that order. A reply that merely starts
// with the article ("A 45-year-old man ...") chooses nothing.
func ChosenOption(reply string, letters []string) string {
	for _, re := range []*regexp.Regexp{letterAlone, letterLabel, answerStatement} {
		if m := re.FindStringSubmatch(reply); m != nil && slices.Contains(letters, m[1]) {
			return m[1]
		}
	}
	return ""
}

// WriteTable prints accuracy and APR per strategy and window.
func (r *AnswerReport) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "answer accuracy, %d cases (%d requests; %d prompts' replies chose no option); full record %.1f%%\n",
		r.Cases, r.Requests, r.Unparsed, 100*r.Full)
	fmt.Fprintf(w, "%-10s", "strategy")
	for _, win := range r.Windows {
		fmt.Fprintf(w, " %14s", fmt.Sprintf("acc/APR@%d", win))
	}
	fmt.Fprintln(w)
	for _, st := range r.Strategies {
		fmt.Fprintf(w, "%-10s", st)
		for _, win := range r.Windows {
			key := strconv.Itoa(win)
			cell := fmt.Sprintf("%.1f%%", 100*r.Accuracy[st][key])
			if apr, ok := r.APR[st][key]; ok {
				cell += fmt.Sprintf("/%.2f", apr)
			}
			fmt.Fprintf(w, " %14s", cell)
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	return nil
}
