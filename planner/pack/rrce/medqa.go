package rrce

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/clinical"
	"github.com/medkb/medkb/internal/text"
)

// medqaItem is one line of the MedQA-USMLE JSON Lines file.
type medqaItem struct {
	RealIdx  int               `json:"realidx"`
	Question string            `json:"question"`
	Options  map[string]string `json:"options"`
	Answer   string            `json:"answer"`
}

// MedQACases turns MedQA-USMLE vignettes into cases, as the paper did.
//
// Each question is split into sentences; the last one that asks
// something (ends in "?") is the question, and the sentences before it
// are the vignette, one signal segment each, typed by
// clinical.SegmentType, keys by clinical.Keys. Like the paper, only
// vignettes with at least two kinds of segment and at least one T1/T2
// segment are eligible; n of them are drawn with the seed (all eligible
// when n <= 0 or n exceeds them), in file order.
//
// The query is MedQA's whole question, vignette and final question, followed
// by the answer options: what a prompt for the question holds, and what the
// paper's "200 MedQA questions" are. The correct answer is not marked. The
// vignette makes the query informative: with the lexical embedder, the
// case's own sentences then score a mean cosine of 0.34 against it and other
// cases' fragments 0.12; with the final question sentence alone both score
// 0.07 and similarity cannot tell them apart (EBM RRCE 80.4 % at 256 tokens
// instead of 88.8 %).
func MedQACases(path string, n int, seed int64) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var items []medqaItem
	for line := 1; sc.Scan(); line++ {
		var it medqaItem
		if err := json.Unmarshal(sc.Bytes(), &it); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// Visit the items in a seeded random order and keep the first n
	// eligible ones: a uniform sample of the eligible vignettes that only
	// classifies the sentences it needs to.
	if n <= 0 {
		n = len(items)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6d65647161)) // "medqa"
	var picked []int
	cases := map[int]Case{}
	for _, k := range rng.Perm(len(items)) {
		if len(picked) == n {
			break
		}
		if c, ok := medqaCase(&items[k]); ok {
			picked = append(picked, k)
			cases[k] = c
		}
	}
	slices.Sort(picked)
	out := make([]Case, len(picked))
	for i, k := range picked {
		out[i] = cases[k]
	}
	return out, nil
}

// medqaCase builds the case of one item, ok false when it is not eligible.
func medqaCase(it *medqaItem) (Case, bool) {
	sents := text.Sentences(it.Question)
	q := len(sents) - 1
	for q > 0 && !strings.HasSuffix(sents[q], "?") {
		q--
	}
	if q < 1 {
		return Case{}, false
	}
	c := Case{ID: fmt.Sprintf("medqa-%d", it.RealIdx), Query: medqaQuery(it.Question, it.Options)}
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
