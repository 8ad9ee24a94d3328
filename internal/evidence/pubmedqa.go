package evidence

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/reliability"
	"github.com/medkb/medkb/internal/text"
)

// The rule that derives a PubMedQA question's evidence from the authors'
// conclusion (see the package documentation).
const (
	// MaxEvidence is the most sentences a question's evidence holds.
	MaxEvidence = 3
	// MinGain is how many conclusion terms (beyond the question's) not yet covered a sentence
	// must bring to join the evidence.
	MinGain = 3
	// MinShare is the least share of a sentence's own terms that the
	// conclusion must reuse for the sentence to be evidence: a long
	// sentence sharing three words by chance is not what it rests on.
	MinShare = 0.2
)

// PubMedQAStats describes a conversion.
type PubMedQAStats struct {
	Abstracts int `json:"abstracts"`
	Sentences int `json:"sentences"`
	// ByEvidence counts the abstracts by the number of evidence
	// sentences derived, 0 to MaxEvidence; those with 0 ask no question.
	ByEvidence []int `json:"abstracts_by_evidence_sentences"`
	// Sampled is how many of the others ask their question.
	Sampled int `json:"sampled"`
}

// pubmedqaEntry is one abstract of ori_pqal.json.
type pubmedqaEntry struct {
	Question   string   `json:"QUESTION"`
	Contexts   []string `json:"CONTEXTS"`
	Labels     []string `json:"LABELS"`
	Year       *string  `json:"YEAR"`
	LongAnswer string   `json:"LONG_ANSWER"`
}

// PubMedQA converts the expert-labelled PubMedQA set (ori_pqal.json) into
// a Set: every sentence of every abstract's context paragraphs is a
// document "PMID/s<k>" (k from 1 in reading order; time the YEAR, the
// paragraph's label as meta "section", the abstract's study design as
// evidence when its text names one, no patient, no type), so the
// other abstracts are the haystack. n abstracts with derived evidence
// (0: all) ask their QUESTION, taken evenly spaced in PMID order; their
// evidence is derived from the LONG_ANSWER, which is never ingested:
// each evidence sentence quoted whole, so that only its full text
// recalls it (a stub cut short or a compression is not the sentence).
func PubMedQA(path string, n int) (*Set, *PubMedQAStats, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var entries map[string]pubmedqaEntry
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	pmids := make([]string, 0, len(entries))
	for id := range entries {
		pmids = append(pmids, id)
	}
	slices.SortFunc(pmids, func(a, b string) int { return cmp.Or(cmp.Compare(len(a), len(b)), cmp.Compare(a, b)) })
	an, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		return nil, nil, err
	}
	set := &Set{}
	stats := &PubMedQAStats{Abstracts: len(pmids), ByEvidence: make([]int, MaxEvidence+1)}
	var asked []Question
	for _, id := range pmids {
		e := entries[id]
		// Every sentence carries its abstract's study design, as the
		// text cues read it from the whole abstract (most name none),
		// so that PACK ... reliability can weigh it.
		design := reliability.DesignOf(reliability.Doc{Text: strings.Join(e.Contexts, "\n")})
		var sentences []string
		for i, para := range e.Contexts {
			section := ""
			if i < len(e.Labels) {
				section = e.Labels[i]
			}
			for _, s := range text.Sentences(para) {
				sentences = append(sentences, s)
				d := base.Doc{ID: fmt.Sprintf("%s/s%d", id, len(sentences)), Text: s, Lang: "en"}
				if design != reliability.Unknown {
					d.Evidence = design.String()
				}
				if e.Year != nil {
					d.Time = *e.Year
				}
				if section != "" {
					d.Meta = map[string]string{"section": section}
				}
				set.Docs = append(set.Docs, d)
			}
		}
		stats.Sentences += len(sentences)
		picked := restsOn(an, e.LongAnswer, e.Question, sentences)
		stats.ByEvidence[len(picked)]++
		if len(picked) == 0 {
			continue
		}
		q := Question{ID: id, Question: e.Question, Kind: Targeted, Pos: fmt.Sprintf("%s[%s]", path, id)}
		for _, k := range picked {
			q.Evidence = append(q.Evidence, Item{Doc: fmt.Sprintf("%s/s%d", id, k+1), Quote: sentences[k]})
		}
		asked = append(asked, q)
	}
	set.Questions = sample(asked, n)
	stats.Sampled = len(set.Questions)
	return set, stats, nil
}

// sample takes n of qs evenly spaced, in order; all when n is 0 or more
// than there are.
func sample(qs []Question, n int) []Question {
	if n <= 0 || n >= len(qs) {
		return qs
	}
	out := make([]Question, n)
	for i := range out {
		out[i] = qs[i*len(qs)/n]
	}
	return out
}

// restsOn picks the sentences a conclusion rests on, by index in reading
// order. The conclusion's terms, less those the question already uses
// (the topic, which an aim or background sentence restates too), are
// what it adds; greedily, the sentence that brings the most of them not
// yet covered (ties to the earlier) joins, if it brings at least
// MinGain and the conclusion reuses at least MinShare of its own terms,
// up to MaxEvidence sentences.
func restsOn(an analysis.Analyzer, conclusion, question string, sentences []string) []int {
	concl := terms(an, conclusion)
	for t := range terms(an, question) {
		delete(concl, t)
	}
	own := make([]map[string]bool, len(sentences))
	for i, s := range sentences {
		own[i] = terms(an, s)
	}
	covered := map[string]bool{}
	var picked []int
	for len(picked) < MaxEvidence {
		best, bestGain := -1, 0
		for i, ts := range own {
			if slices.Contains(picked, i) || len(ts) == 0 {
				continue
			}
			shared, gain := 0, 0
			for t := range ts {
				if concl[t] {
					shared++
					if !covered[t] {
						gain++
					}
				}
			}
			if float64(shared) >= MinShare*float64(len(ts)) && gain > bestGain {
				best, bestGain = i, gain
			}
		}
		if bestGain < MinGain {
			break
		}
		picked = append(picked, best)
		for t := range own[best] {
			if concl[t] {
				covered[t] = true
			}
		}
	}
	slices.Sort(picked)
	return picked
}

// terms are the distinct content terms of s as bleve's English analyzer
// gives them (lower case, English stop words out, possessives and Porter
// stems), less single letters; numbers stay.
func terms(an analysis.Analyzer, s string) map[string]bool {
	out := map[string]bool{}
	for _, tok := range an.Analyze([]byte(s)) {
		if utf8.RuneCount(tok.Term) > 1 || isNumber(tok.Term) {
			out[string(tok.Term)] = true
		}
	}
	return out
}

func isNumber(b []byte) bool {
	_, err := strconv.ParseFloat(string(b), 64)
	return err == nil
}
