package evidence

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/docio"
	"github.com/medkb/medkb/internal/text"
)

// The kinds of question.
const (
	// Targeted asks for specific evidence: "what was the troponin?".
	Targeted = "targeted"
	// Generic asks for an overview: "summarise the findings".
	Generic = "generic"
)

// Question is one line of a question file.
type Question struct {
	ID       string `json:"id"`
	Question string `json:"question"`
	// Patient, when set, restricts the statement: WHERE patient = "...".
	Patient string `json:"patient,omitempty"`
	// Kind is Targeted or Generic.
	Kind     string `json:"kind"`
	Evidence []Item `json:"evidence"`
	// Pos is where the question was read, "file:line" ("" when it was
	// built, as PubMedQA's are); errors about it start with it.
	Pos string `json:"-"`
}

// Item is one piece of evidence a question needs: a document, and
// optionally a quote that the packed text of one of its items must hold
// (after text.FoldKey on both sides). Without a quote any packed item of
// the document recalls it.
type Item struct {
	Doc   string `json:"doc"`
	Quote string `json:"quote,omitempty"`
}

// ErrQuestions is returned (wrapped, naming file:line) when a question
// file holds a bad line or a question that does not fit its corpus.
var ErrQuestions = errors.New("medkb: bad evidence question")

// maxErrors is how many bad lines an error names before it counts the rest.
const maxErrors = 20

// lineErrors gathers the bad lines of a file, the first maxErrors in
// detail.
type lineErrors struct {
	msgs []string
	n    int
}

func (e *lineErrors) add(pos string, format string, args ...any) {
	e.n++
	if len(e.msgs) < maxErrors {
		e.msgs = append(e.msgs, pos+": "+fmt.Sprintf(format, args...))
	}
}

func (e *lineErrors) err() error {
	switch {
	case e.n == 0:
		return nil
	case e.n == 1:
		return fmt.Errorf("%w: %s", ErrQuestions, e.msgs[0])
	}
	msg := fmt.Sprintf("%d errors:\n  %s", e.n, strings.Join(e.msgs, "\n  "))
	if e.n > len(e.msgs) {
		msg += fmt.Sprintf("\n  ... and %d more", e.n-len(e.msgs))
	}
	return fmt.Errorf("%w: %s", ErrQuestions, msg)
}

// ReadQuestions reads a question file, JSON Lines (see the package
// documentation); name prefixes the positions in errors. Blank lines are
// skipped. Every bad line is an error, the first 20 named with
// file:line and the reason: malformed JSON, a field the format does not
// know (a misspelt "quote" would otherwise turn a targeted item into any
// item of its document), a missing id, question or evidence, an unknown
// kind, an evidence item without a document or with a quote that is
// only white space, an item or an id given twice. Whether the
// documents and quotes exist is Check's to say, once the corpus is known.
func ReadQuestions(r io.Reader, name string) ([]Question, error) {
	var qs []Question
	var bad lineErrors
	seen := map[string]string{}
	err := docio.EachLine(r, func(n int, line []byte) error {
		pos := fmt.Sprintf("%s:%d", name, n)
		q, err := decodeQuestion(line)
		if err == nil {
			err = q.check()
		}
		if err == nil && seen[q.ID] != "" {
			err = fmt.Errorf("id %q already used at %s", q.ID, seen[q.ID])
		}
		if err != nil {
			bad.add(pos, "%v", err)
			return nil
		}
		q.Pos = pos
		seen[q.ID] = pos
		qs = append(qs, q)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := bad.err(); err != nil {
		return nil, err
	}
	return qs, nil
}

// ReadQuestionsFile reads a question file (see ReadQuestions).
func ReadQuestionsFile(path string) ([]Question, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadQuestions(f, path)
}

func decodeQuestion(line []byte) (Question, error) {
	var q Question
	if !utf8.Valid(line) {
		return q, errors.New("invalid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		return q, fmt.Errorf("malformed JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if dec.More() {
		return q, errors.New("malformed JSON: more than one value on the line")
	}
	return q, nil
}

// check reports what makes a decoded question invalid.
func (q *Question) check() error {
	switch {
	case strings.TrimSpace(q.ID) == "":
		return errors.New("missing id")
	case strings.TrimSpace(q.Question) == "":
		return fmt.Errorf("question %q: missing question", q.ID)
	case q.Kind != Targeted && q.Kind != Generic:
		return fmt.Errorf("question %q: kind %q: want %q or %q", q.ID, q.Kind, Targeted, Generic)
	case len(q.Evidence) == 0:
		return fmt.Errorf("question %q: missing evidence", q.ID)
	}
	seen := map[Item]int{}
	for i, it := range q.Evidence {
		switch {
		case strings.TrimSpace(it.Doc) == "":
			return fmt.Errorf("question %q: evidence %d: missing doc", q.ID, i+1)
		case it.Quote != "" && text.FoldKey(it.Quote) == "":
			return fmt.Errorf("question %q: evidence %d: the quote is only white space", q.ID, i+1)
		}
		if prev, dup := seen[it]; dup {
			return fmt.Errorf("question %q: evidence %d repeats evidence %d", q.ID, i+1, prev)
		}
		seen[it] = i + 1
	}
	return nil
}

// Check reports, as one error naming each question's file:line, the
// evidence that its corpus cannot hold: a document id that no document
// has, a quote that its document's text does not hold (after
// text.FoldKey), and a patient that the document does not belong to
// (WHERE patient would keep it out of every packing).
func Check(qs []Question, docs map[string]*base.Doc) error {
	var bad lineErrors
	for _, q := range qs {
		for i, it := range q.Evidence {
			d := docs[it.Doc]
			switch {
			case d == nil:
				bad.add(q.Pos, "question %q: evidence %d: doc %q is not in the corpus", q.ID, i+1, it.Doc)
			case it.Quote != "" && !strings.Contains(text.FoldKey(d.Text), text.FoldKey(it.Quote)):
				bad.add(q.Pos, "question %q: evidence %d: quote %q is not in the text of %s", q.ID, i+1, it.Quote, it.Doc)
			case q.Patient != "" && d.Patient != q.Patient:
				bad.add(q.Pos, "question %q: evidence %d: doc %q is patient %q's, not %q", q.ID, i+1, it.Doc, d.Patient, q.Patient)
			}
		}
	}
	return bad.err()
}
