package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/medkb/medkb/internal/base"
)

var vocabulary = strings.Fields(`patient presents with chest pain dyspnea fatigue fever cough troponin creatinine
hemoglobin glucose potassium sodium biopsy shows adenocarcinoma ultrasound reveals mass lesion CT scan
demonstrates nodule MRI examination reveals tenderness blood pressure pulse respirations history of
hypertension diabetes smoking alcohol allergy penicillin rash edema wheezing murmur lungs clear abdomen
soft liver spleen kidney cyst stenosis occlusion ejection fraction normal elevated decreased positive
negative for markers infection inflammation therapy treatment medication dose daily follow up review`)

var types = []string{"pathology", "lab", "imaging", "exam", "complaint", "history", "", "ecg"}

// Docs returns n documents with ids doc-0000000..., deterministic for seed.
func Docs(n int, seed uint64) []base.Doc {
	rng := rand.New(rand.NewPCG(seed, 1))
	docs := make([]base.Doc, n)
	var b strings.Builder
	for i := range docs {
		b.Reset()
		for w := 0; w < 80; w++ {
			if w > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(vocabulary[rng.IntN(len(vocabulary))])
			if w%12 == 11 {
				fmt.Fprintf(&b, " %.1f mg/dL.", rng.Float64()*10)
			}
		}
		docs[i] = base.Doc{ID: fmt.Sprintf("doc-%07d", i), Text: b.String(), Type: types[i%len(types)],
			Patient: fmt.Sprintf("P%04d", i%1000), Time: fmt.Sprintf("20%02d-%02d-15", 10+i%15, 1+i%12)}
	}
	return docs
}

// Queries returns n short queries drawn from the same vocabulary.
func Queries(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 2))
	out := make([]string, n)
	for i := range out {
		w := make([]string, 2+rng.IntN(4))
		for j := range w {
			w[j] = vocabulary[rng.IntN(len(vocabulary))]
		}
		out[i] = strings.Join(w, " ")
	}
	return out
}

// Resample returns n documents of about 80 words resampled from real
// texts: nine words in ten come from one source text, one in ten from
// anywhere in the sources, so term and document frequencies stay close to
// those of real text (topical words cluster in a few documents) at any
// scale. Types, patients and times follow Docs.
func Resample(sources []string, n int, seed uint64) []base.Doc {
	docs := Docs(n, seed)
	var words [][]string
	for _, s := range sources {
		if w := strings.Fields(s); len(w) > 0 {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return docs
	}
	rng := rand.New(rand.NewPCG(seed, 3))
	out := make([]string, 80)
	for i := range docs {
		src := words[rng.IntN(len(words))]
		for j := range out {
			from := src
			if rng.IntN(10) == 0 {
				from = words[rng.IntN(len(words))]
			}
			out[j] = from[rng.IntN(len(from))]
		}
		docs[i].Text = strings.Join(out, " ")
	}
	return docs
}
