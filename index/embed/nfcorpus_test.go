package embed

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/shareddata"
)

// nfcorpusDir returns the NFCorpus folder of the shared benchmark data,
// or skips.
func nfcorpusDir(tb testing.TB) string {
	tb.Helper()
	return filepath.Dir(shareddata.Path(tb, "nfcorpus", "test.docs"))
}

// readQrels returns query id -> document id -> grade.
func readQrels(tb testing.TB, path string) map[string]map[string]int {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	qrels := map[string]map[string]int{}
	for line := range strings.Lines(string(data)) {
		f := strings.Fields(line)
		if len(f) != 4 {
			continue
		}
		grade, err := strconv.Atoi(f[3])
		if err != nil || grade <= 0 {
			continue
		}
		if qrels[f[0]] == nil {
			qrels[f[0]] = map[string]int{}
		}
		qrels[f[0]][f[2]] = grade
	}
	return qrels
}

// ndcgAt10 is nDCG@10 with linear gains (trec_eval's ndcg_cut_10), the
// ideal ranking drawn from judged documents present in the corpus.
func ndcgAt10(ranked []string, judged map[string]int, present map[string]bool) float64 {
	var dcg float64
	for i, id := range ranked[:min(10, len(ranked))] {
		dcg += float64(judged[id]) / math.Log2(float64(i+2))
	}
	var grades []int
	for id, g := range judged {
		if present[id] {
			grades = append(grades, g)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(grades)))
	var ideal float64
	for i, g := range grades[:min(10, len(grades))] {
		ideal += float64(g) / math.Log2(float64(i+2))
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
}

// TestHashNFCorpus measures the hash embedder as a retriever on real
// medical queries and documents: exact top-10 by cosine, nDCG@10 over the
// judged test title queries. BM25 scores about 0.32 here; random ranking
// about 0.01.
func TestHashNFCorpus(t *testing.T) {
	dir := nfcorpusDir(t)
	docIDs, docs := shareddata.ReadTSV(t, filepath.Join(dir, "test.docs"))
	qIDs, queries := shareddata.ReadTSV(t, filepath.Join(dir, "test.titles.queries"))
	qrels := readQrels(t, filepath.Join(dir, "test.2-1-0.qrel"))

	e := NewHash(DefaultHashDim)
	ctx := context.Background()
	docVecs, err := e.Embed(ctx, docs)
	if err != nil {
		t.Fatal(err)
	}
	ix := vector.New(e.Dim())
	slots := make([]base.Slot, len(docs))
	flat := make([]float32, 0, len(docs)*e.Dim())
	present := make(map[string]bool, len(docs))
	for i, v := range docVecs {
		slots[i] = base.Slot{Ord: uint64(i), Alive: true}
		flat = append(flat, v...)
		present[docIDs[i]] = true
	}
	if err := ix.Load(slots, flat); err != nil {
		t.Fatal(err)
	}
	qVecs, err := e.Embed(ctx, queries)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	n := 0
	for i, q := range qVecs {
		judged := qrels[qIDs[i]]
		if len(judged) == 0 {
			continue
		}
		var ranked []string
		for _, h := range ix.Search(q, 10, nil) {
			ranked = append(ranked, docIDs[h.Ord])
		}
		sum += ndcgAt10(ranked, judged, present)
		n++
	}
	ndcg := sum / float64(n)
	t.Logf("hash-v1 dim %d on NFCorpus test titles: nDCG@10 = %.4f over %d judged queries, %d docs", e.Dim(), ndcg, n, len(docs))
	if ndcg < 0.2 {
		t.Errorf("nDCG@10 = %.4f, want >= 0.2 (a useful vector arm)", ndcg)
	}
}

// BenchmarkHashNFCorpus embeds the 3,162 NFCorpus test abstracts (about
// 150 words each after the corpus's own stopword removal) per op.
func BenchmarkHashNFCorpus(b *testing.B) {
	_, docs := shareddata.ReadTSV(b, filepath.Join(nfcorpusDir(b), "test.docs"))
	e := NewHash(DefaultHashDim)
	ctx := context.Background()
	for b.Loop() {
		if _, err := e.Embed(ctx, docs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(docs)), "ns/doc")
}
