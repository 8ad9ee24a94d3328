package bm25

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/medkb/medkb/internal/ireval"
	"github.com/medkb/medkb/internal/shareddata"
)

// dataDir returns the shared benchmark data folder ($MEDKB_DATA, or
// ../shared/data beside the repository), skipping the test when absent.
func dataDir(tb testing.TB, sub string) string {
	tb.Helper()
	root := os.Getenv("MEDKB_DATA")
	if root == "" {
		root = filepath.Join("..", "..", "..", "shared", "data")
	}
	dir := filepath.Join(root, sub)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("benchmark data not found at %s (set MEDKB_DATA): %v", dir, err)
	}
	return dir
}

// TestNFCorpusQuality indexes the NFCorpus test split, runs its title
// queries and checks graded nDCG@10 and recall@100 (grade >= 1) against
// the qrels. A textbook BM25 without stemming reaches nDCG@10 0.313.
func TestNFCorpusQuality(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes 3,162 documents")
	}
	dir := dataDir(t, "nfcorpus")
	docIDs, docTexts := shareddata.ReadTSV(t, filepath.Join(dir, "test.docs"))
	qIDs, qTexts := shareddata.ReadTSV(t, filepath.Join(dir, "test.titles.queries"))
	f, err := os.Open(filepath.Join(dir, "test.2-1-0.qrel"))
	if err != nil {
		t.Fatal(err)
	}
	qrels, err := ireval.ReadQrels(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}

	ix := openTemp(t)
	docs := make([]Doc, len(docIDs))
	for i := range docIDs {
		docs[i] = Doc{Ord: uint64(i), Doc: docIDs[i], Text: docTexts[i]}
	}
	if err := ix.Apply(1, nil, docs); err != nil {
		t.Fatal(err)
	}

	runs := map[string][]string{}
	for i, qid := range qIDs {
		hits, err := ix.Search(context.Background(), qTexts[i], 100, nil)
		if err != nil {
			t.Fatalf("query %s %q: %v", qid, qTexts[i], err)
		}
		for _, h := range hits {
			runs[qid] = append(runs[qid], docIDs[h.Ord])
		}
	}
	ndcg := ireval.Mean(qrels, runs, func(r []string, g map[string]int) float64 { return ireval.NDCG(r, g, 10) })
	recall := ireval.Mean(qrels, runs, func(r []string, g map[string]int) float64 { return ireval.Recall(r, g, 100, 1) })
	t.Logf("NFCorpus test, %d docs, %d judged queries: nDCG@10 %.4f, recall@100 %.4f", len(docs), len(qrels), ndcg, recall)
	if ndcg < 0.31 {
		t.Errorf("nDCG@10 = %.4f, want at least 0.31", ndcg)
	}
}
