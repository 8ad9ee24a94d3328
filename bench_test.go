package medkb

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// syntheticDocs makes n documents of about 80 words from a clinical
// vocabulary, typed across the four tiers, deterministic for a seed.
func syntheticDocs(n int, seed uint64) []base.Doc {
	words := strings.Fields(`patient presents with chest pain dyspnea fatigue fever cough troponin creatinine
hemoglobin glucose potassium sodium biopsy shows adenocarcinoma ultrasound reveals mass lesion CT scan
demonstrates nodule MRI examination reveals tenderness blood pressure pulse respirations history of
hypertension diabetes smoking alcohol allergy penicillin rash edema wheezing murmur lungs clear abdomen
soft liver spleen kidney cyst stenosis occlusion ejection fraction normal elevated decreased positive
negative for markers infection inflammation therapy treatment medication dose daily follow up review`)
	types := []string{"pathology", "lab", "imaging", "exam", "complaint", "history", "", "ecg"}
	rng := rand.New(rand.NewPCG(seed, 1))
	docs := make([]base.Doc, n)
	for i := range docs {
		var b strings.Builder
		for w := 0; w < 80; w++ {
			if w > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
			if w%12 == 11 {
				fmt.Fprintf(&b, " %.1f mg/dL.", rng.Float64()*10)
			}
		}
		docs[i] = base.Doc{ID: fmt.Sprintf("doc-%07d", i), Text: b.String(), Type: types[i%len(types)],
			Patient: fmt.Sprintf("P%04d", i%1000), Time: fmt.Sprintf("20%02d-%02d-15", 10+i%15, 1+i%12)}
	}
	return docs
}

// BenchmarkIngest measures end-to-end ingest (prepare, store, BM25,
// vectors) in batches of 1,000 documents of about 80 words; docs/s is
// reported as a metric.
func BenchmarkIngest(b *testing.B) {
	docs := syntheticDocs(1000, 1)
	db, err := Open(filepath.Join(b.TempDir(), "kb"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range docs {
			docs[j].ID = fmt.Sprintf("doc-%d-%d", i, j)
		}
		if _, err := db.Ingest(ctx, docs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(docs))/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkPrepare isolates the CPU side of ingest: validation, tiering,
// chunking, compression and embedding.
func BenchmarkPrepare(b *testing.B) {
	docs := syntheticDocs(1000, 2)
	db, err := Open(filepath.Join(b.TempDir(), "kb"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := db.prepare(context.Background(), docs, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(docs))/b.Elapsed().Seconds(), "docs/s")
}
