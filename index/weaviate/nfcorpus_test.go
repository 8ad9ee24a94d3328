//go:build weaviate

package weaviate

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/medkb/medkb/index/bm25"
	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/internal/shareddata"
)

// TestHNSWRecallNFCorpus measures the vector arm on HNSW against the
// exact (flat) one: recall@10 over NFCorpus's test and dev title queries,
// with the built-in hash embedder, one document a chunk. The target is
// 0.95 (docs/weaviate.md); it also logs the median latency of each.
func TestHNSWRecallNFCorpus(t *testing.T) {
	nodes := Cluster(t)
	_, texts := shareddata.ReadTSV(t, shareddata.Path(t, "nfcorpus", "test.docs"))
	var queries []string
	for _, f := range []string{"test.titles.queries", "dev.titles.queries"} {
		_, q := shareddata.ReadTSV(t, shareddata.Path(t, "nfcorpus", f))
		queries = append(queries, q...)
	}
	ctx := context.Background()
	emb := embed.NewHash(embed.DefaultHashDim)
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	qvecs, err := emb.Embed(ctx, queries)
	if err != nil {
		t.Fatal(err)
	}
	docs := make([]bm25.Doc, len(texts))
	for i, s := range texts {
		docs[i] = bm25.Doc{Ord: uint64(i), Text: s}
	}
	stamp := time.Now().UnixNano()
	results := map[string][][]uint64{}
	ef, _ := strconv.Atoi(os.Getenv("MEDKB_WEAVIATE_EF"))
	for _, kind := range []string{Flat, HNSW} {
		name := fmt.Sprintf("Medkbrecall_%s_%d", kind, stamp)
		ix, err := Open(Options{Nodes: nodes, Collection: name, VectorIndex: kind, EF: ef})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Create(ctx); err != nil {
			t.Fatal(err)
		}
		defer ix.Drop(context.Background(), name)
		start := time.Now()
		if err := ix.Apply(ctx, nil, docs, vecs); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d documents applied in %v", kind, len(docs), time.Since(start))
		var took []time.Duration
		for _, q := range qvecs {
			start := time.Now()
			hs, err := ix.SearchVector(ctx, q, 10, nil)
			if err != nil {
				t.Fatal(err)
			}
			took = append(took, time.Since(start))
			results[kind] = append(results[kind], ords(hs))
		}
		slices.Sort(took)
		t.Logf("%s: %d queries, median %v, p99 %v", kind, len(took), took[len(took)/2], took[len(took)*99/100])
	}
	found, total := 0, 0
	for i, exact := range results[Flat] {
		got := results[HNSW][i]
		for _, o := range exact {
			if slices.Contains(got, o) {
				found++
			}
		}
		total += len(exact)
	}
	recall := float64(found) / float64(total)
	t.Logf("HNSW (ef %d) recall@10 against flat: %.4f (%d of %d)", cmp.Or(ef, DefaultEF), recall, found, total)
	if recall < 0.95 {
		t.Errorf("HNSW recall@10 %.4f, below 0.95", recall)
	}
}
