package bm25

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/shareddata"
)

// Benchmarks run on synthetic chunks of 80 words, each resampled from one
// real NFCorpus document (nine words in ten from that document, one from
// the whole corpus), so that term and document frequencies stay close to
// those of real text: topical words cluster in a few chunks instead of
// spreading over all of them. Queries are the NFCorpus title queries.
// Without the data, the same scheme runs on a synthetic Zipf vocabulary.

const (
	benchDocs      = 100_000
	benchBatch     = 1_000
	benchDocWords  = 80
	benchQueryPool = 256
)

// textModel generates chunk texts.
type textModel struct {
	words   []string   // the vocabulary
	cum     []float64  // cumulative corpus frequencies of words
	sources [][]string // documents to resample
	queries []string
}

func newTextModel(tb testing.TB) *textModel {
	root := os.Getenv("MEDKB_DATA")
	if root == "" {
		root = filepath.Join("..", "..", "..", "shared", "data")
	}
	dir := filepath.Join(root, "nfcorpus")
	if _, err := os.Stat(dir); err != nil {
		return syntheticModel()
	}
	m := &textModel{}
	counts := map[string]int{}
	for _, split := range []string{"test", "dev"} {
		_, texts := shareddata.ReadTSV(tb, filepath.Join(dir, split+".docs"))
		for _, t := range texts {
			words := strings.Fields(t)
			for _, w := range words {
				counts[w]++
			}
			m.sources = append(m.sources, words)
		}
	}
	for w := range counts {
		m.words = append(m.words, w)
	}
	slices.Sort(m.words)
	var sum float64
	for _, w := range m.words {
		sum += float64(counts[w])
		m.cum = append(m.cum, sum)
	}
	_, m.queries = shareddata.ReadTSV(tb, filepath.Join(dir, "test.titles.queries"))
	return m
}

func syntheticModel() *textModel {
	m := &textModel{}
	var sum float64
	for i := range 30_000 {
		m.words = append(m.words, fmt.Sprintf("w%d", i))
		sum += 1 / math.Pow(float64(i+1), 1.07)
		m.cum = append(m.cum, sum)
	}
	r := rand.New(rand.NewPCG(7, 7))
	for range 6_000 {
		m.sources = append(m.sources, strings.Fields(m.corpusText(r, 150)))
	}
	for range benchQueryPool {
		m.queries = append(m.queries, m.text(r, 2+r.IntN(4)))
	}
	return m
}

// corpusText draws n words from the corpus-wide distribution.
func (m *textModel) corpusText(r *rand.Rand, n int) string {
	words := make([]string, n)
	total := m.cum[len(m.cum)-1]
	for i := range words {
		words[i] = m.words[sort.SearchFloat64s(m.cum, r.Float64()*total)]
	}
	return strings.Join(words, " ")
}

// text resamples n words from one random source document.
func (m *textModel) text(r *rand.Rand, n int) string {
	src := m.sources[r.IntN(len(m.sources))]
	total := m.cum[len(m.cum)-1]
	words := make([]string, n)
	for i := range words {
		if r.IntN(10) == 0 || len(src) == 0 {
			words[i] = m.words[sort.SearchFloat64s(m.cum, r.Float64()*total)]
		} else {
			words[i] = src[r.IntN(len(src))]
		}
	}
	return strings.Join(words, " ")
}

// docs returns n chunks starting at ordinal first, with filter fields
// spread over a few values.
func (m *textModel) docs(r *rand.Rand, first uint64, n int) []Doc {
	docs := make([]Doc, n)
	for i := range docs {
		ord := first + uint64(i)
		docs[i] = Doc{
			Ord:     ord,
			Doc:     fmt.Sprintf("doc-%d", ord/8),
			Text:    m.text(r, benchDocWords),
			Tier:    base.Tiers[ord%4],
			Type:    []string{"lab", "note", "imaging", "pathology", "paper"}[ord%5],
			Patient: fmt.Sprintf("P%03d", ord%500),
			Lang:    "en",
			Time:    base.Day(15000 + ord%4000),
		}
	}
	return docs
}

// benchIndex holds two copies of one 100k-chunk index, built on first use:
// as left by ingest (several segments) and compacted to one. Set
// MEDKB_BM25_BENCH_DIR to keep them there and reuse them in later runs
// (building takes a minute or more); otherwise they live in a temporary
// directory that TestMain removes.
var benchIndex struct {
	once                sync.Once
	ingested, compacted string
	temp                string // to remove at exit, if any
	model               *textModel
	err                 error
}

// sharedIndex returns the directory of the ingested (or compacted) copy.
func sharedIndex(b *testing.B, compacted bool) (string, *textModel) {
	benchIndex.once.Do(func() {
		benchIndex.model = newTextModel(b)
		benchIndex.err = buildBenchIndex(b)
	})
	if benchIndex.err != nil {
		b.Fatal(benchIndex.err)
	}
	if compacted {
		return benchIndex.compacted, benchIndex.model
	}
	return benchIndex.ingested, benchIndex.model
}

func buildBenchIndex(b *testing.B) error {
	root := os.Getenv("MEDKB_BM25_BENCH_DIR")
	if root == "" {
		tmp, err := os.MkdirTemp("", "medkb-bm25-bench-")
		if err != nil {
			return err
		}
		root, benchIndex.temp = tmp, tmp
	}
	benchIndex.ingested = filepath.Join(root, fmt.Sprintf("bm25-%d", benchDocs))
	benchIndex.compacted = benchIndex.ingested + "-compacted"
	if _, err := os.Stat(filepath.Join(benchIndex.compacted, metaFile)); err == nil {
		b.Logf("reusing %s", root)
		return nil
	}
	if err := os.RemoveAll(benchIndex.ingested); err != nil {
		return err
	}
	ix, err := Open(benchIndex.ingested, nil)
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(1, 2))
	start := time.Now()
	for seq := uint64(1); seq <= benchDocs/benchBatch; seq++ {
		docs := benchIndex.model.docs(r, (seq-1)*benchBatch, benchBatch)
		if err := ix.Apply(seq, nil, docs); err != nil {
			return err
		}
	}
	el := time.Since(start)
	b.Logf("built %d chunks in %v (%.0f docs/s), %v segments", benchDocs, el, benchDocs/el.Seconds(), segments(ix))
	if err := ix.Close(); err != nil {
		return err
	}

	if err := os.CopyFS(benchIndex.compacted, os.DirFS(benchIndex.ingested)); err != nil {
		return err
	}
	if ix, err = Open(benchIndex.compacted, nil); err != nil {
		return err
	}
	start = time.Now()
	if err := ix.Compact(context.Background()); err != nil {
		return err
	}
	b.Logf("compacted in %v to %v segments", time.Since(start), segments(ix))
	return ix.Close()
}

// segments returns the number of segments in the index.
func segments(ix *Index) any {
	adv, err := ix.bleve.Advanced()
	if err != nil {
		return err
	}
	n, err := segmentCount(adv.(*scorch.Scorch))
	if err != nil {
		return err
	}
	return n
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchIndex.temp != "" {
		os.RemoveAll(benchIndex.temp)
	}
	os.Exit(code)
}
