package gate

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/clinical"
	"github.com/medkb/medkb/internal/text"
)

// The sentence labels.
const (
	Critical    = "A" // critical for diagnosis
	Helpful     = "B" // helps retrieval
	Unimportant = "C"
)

// Weights of the labels in the completeness score (alpha, beta, gamma).
const (
	WeightA = 1.0
	WeightB = 0.5
	WeightC = 0.1
)

// MinUnits is the fewest sentences the score is normalised by: an input
// of fewer sentences is scored as if it had MinUnits, the missing ones
// empty (see the package documentation).
const MinUnits = 16

// Decisions.
const (
	Answer   = "answer"   // I >= theta1: the input is complete; answer without retrieval
	Retrieve = "retrieve" // theta2 <= I < theta1
	Warn     = "warn"     // I < theta2: retrieve, and warn that critical information is sparse
)

// Default thresholds, chosen on MedQA vignettes (docs/gate.md).
const (
	DefaultTheta1 = 0.42
	DefaultTheta2 = 0.14
)

// Names counts what a sentence names that helps retrieval (knowledge-graph
// entities of two or more characters, the store's domain terms) and says
// what in a few words ("2 graph entities"); nil when nothing is known.
type Names func(sentence string) (n int, what string)

// Unit is one sentence of the input, its label and the rule that gave it.
type Unit struct {
	Text  string `json:"text"`
	Label string `json:"label"`
	Why   string `json:"why"`
}

// Report is the gate's reading of an input.
type Report struct {
	Units    []Unit  `json:"units"`
	Score    float64 `json:"score"` // I, in [0, 1]
	Theta1   float64 `json:"theta1"`
	Theta2   float64 `json:"theta2"`
	Decision string  `json:"decision"`
}

// Counts returns how many units carry each label.
func (r *Report) Counts() (a, b, c int) {
	for _, u := range r.Units {
		switch u.Label {
		case Critical:
			a++
		case Helpful:
			b++
		default:
			c++
		}
	}
	return a, b, c
}

// Summary is one line: "I=0.62 (A 3, B 2, C 1 of 6) -> retrieve".
func (r *Report) Summary() string {
	a, b, c := r.Counts()
	return fmt.Sprintf("I=%.2f (A %d, B %d, C %d of %d; theta1 %g, theta2 %g) -> %s",
		r.Score, a, b, c, len(r.Units), r.Theta1, r.Theta2, r.Decision)
}

// Read splits input into sentences, labels them and decides.
func Read(input string, names Names, theta1, theta2 float64) Report {
	var r Report
	for _, s := range text.Sentences(input) {
		label, why := Label(s, names)
		r.Units = append(r.Units, Unit{Text: s, Label: label, Why: why})
	}
	r.Score = Score(r.Units)
	r.Theta1, r.Theta2 = theta1, theta2
	r.Decision = Decide(r.Score, theta1, theta2)
	return r
}

// Label labels one sentence (see the package documentation) and says
// which rule decided.
func Label(s string, names Names) (label, why string) {
	tier, reason := clinical.Classify("", base.TierNone, s)
	if tier != base.T4 && reason.Name != clinical.FallbackRule {
		return Critical, "rule " + reason.Name
	}
	if keys := clinical.Keys(s); len(keys) > 0 {
		return Critical, "value " + keys[0]
	}
	if reason.Name != clinical.FallbackRule {
		return Helpful, "rule " + reason.Name
	}
	if clinical.IsComplaint(s) {
		return Helpful, "complaint"
	}
	if names != nil {
		if n, what := names(s); n > 0 {
			return Helpful, "names " + what
		}
	}
	return Unimportant, "no rule, value or entity"
}

// Score is the completeness I of labelled units: the weighted sum of
// their labels over WeightA * max(len(units), MinUnits).
func Score(units []Unit) float64 {
	sum := 0.0
	for _, u := range units {
		switch u.Label {
		case Critical:
			sum += WeightA
		case Helpful:
			sum += WeightB
		default:
			sum += WeightC
		}
	}
	return sum / (WeightA * float64(max(len(units), MinUnits)))
}

// Decide maps a score to a decision by the thresholds.
func Decide(score, theta1, theta2 float64) string {
	switch {
	case score >= theta1:
		return Answer
	case score >= theta2:
		return Retrieve
	}
	return Warn
}

// Queries returns the sentences of r that retrieve: those labelled A or
// B, in input order (ICA-RAG leaves C sentences out of retrieval as
// noise). When none is, it returns the whole input as one query, so that
// a question with no rule, value or entity still retrieves.
func (r *Report) Queries(input string) []string {
	var out []string
	for _, u := range r.Units {
		if u.Label != Unimportant {
			out = append(out, u.Text)
		}
	}
	if len(out) == 0 && strings.TrimSpace(input) != "" {
		out = []string{input}
	}
	return out
}

// LongEnough reports whether a name is long enough to count as an entity
// mention: two or more characters (a one-character Chinese name such as
// 黄 or 血 matches inside too many words to mean anything).
func LongEnough(mention string) bool { return utf8.RuneCountInString(mention) >= 2 }
