package medkb

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/medkb/medkb/internal/synth"
)

// BenchmarkIngest measures end-to-end ingest (prepare, store, BM25,
// vectors) in batches of 1,000 documents of about 80 words; docs/s is
// reported as a metric.
func BenchmarkIngest(b *testing.B) {
	docs := convert(synth.Docs(1000, 1), fromBaseDoc)
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
	docs := synth.Docs(1000, 2)
	db, err := Open(filepath.Join(b.TempDir(), "kb"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := db.preparer().prepare(context.Background(), docs, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(docs))/b.Elapsed().Seconds(), "docs/s")
}
