package evidence

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/text"
)

// The headers that start every copy after the first that AddDuplicates
// makes, as a note that carries text forward says where it came from, in
// the document's language.
const (
	CopyHeader   = "Copied forward from an earlier note."
	CopyHeaderZH = "（复制自既往病程记录）"
)

// AddDuplicates injects copy-forward text into the set, as clinical
// records hold it: for every question, 1 to 3 copies (seeded per
// question) of its evidence documents, each a new document of the same
// patient, type and time; the first copy of a document is exact, the
// others start with a line CopyHeader (CopyHeaderZH in Chinese). Copies is set so that recall counts a
// packed copy for its original: the model reads the same evidence.
func AddDuplicates(set *Set, seed uint64) {
	byID := make(map[string]int, len(set.Docs))
	for i, d := range set.Docs {
		byID[d.ID] = i
	}
	if set.Copies == nil {
		set.Copies = map[string]string{}
	}
	made := map[string]int{}
	for _, q := range set.Questions {
		h := fnv.New64a()
		h.Write([]byte(q.ID))
		rng := rand.New(rand.NewPCG(seed, h.Sum64()))
		for range 1 + rng.IntN(3) {
			ev := q.Evidence[rng.IntN(len(q.Evidence))]
			i, ok := byID[ev.Doc]
			if !ok {
				continue
			}
			d := set.Docs[i]
			k := made[d.ID]
			made[d.ID]++
			cp := base.Doc{ID: fmt.Sprintf("%s/copy-%d", d.ID, k), Title: d.Title, Text: d.Text, Type: d.Type,
				Tier: d.Tier, Patient: d.Patient, Source: d.Source, Evidence: d.Evidence, Time: d.Time,
				Published: d.Published, Lang: d.Lang, Meta: d.Meta}
			if k > 0 {
				cp.Text = CopyHeader + "\n" + d.Text
				if text.Lang(d.Text) == "zh" {
					cp.Text = CopyHeaderZH + "\n" + d.Text
				}
			}
			set.Docs = append(set.Docs, cp)
			set.Copies[cp.ID] = d.ID
		}
	}
}
