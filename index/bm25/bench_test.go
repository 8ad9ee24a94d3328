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
	"syscall"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/base"
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
		_, texts := readPairs(tb, filepath.Join(dir, split+".docs"))
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
	_, m.queries = readPairs(tb, filepath.Join(dir, "test.titles.queries"))
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

// benchIndex is one 100k-chunk index shared by the search and open
// benchmarks, built on first use. Set MEDKB_BM25_BENCH_DIR to keep it
// there and reuse it in later runs (building takes a while); otherwise it
// lives in a temporary directory removed by TestMain.
var benchIndex struct {
	once  sync.Once
	dir   string // the index
	temp  string // to remove at exit, if any
	model *textModel
	err   error
}

func sharedIndex(b *testing.B) (string, *textModel) {
	benchIndex.once.Do(func() {
		benchIndex.model = newTextModel(b)
		benchIndex.err = buildBenchIndex(b)
	})
	if benchIndex.err != nil {
		b.Fatal(benchIndex.err)
	}
	return benchIndex.dir, benchIndex.model
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
	benchIndex.dir = filepath.Join(root, fmt.Sprintf("bm25-%d", benchDocs))
	if _, err := os.Stat(filepath.Join(benchIndex.dir, metaFile)); err == nil {
		b.Logf("reusing %s", benchIndex.dir)
		return nil
	}
	ix, err := Open(benchIndex.dir, nil)
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
	b.Logf("built %d-chunk index in %v (%.0f docs/s)", benchDocs, time.Since(start), benchDocs/time.Since(start).Seconds())
	return ix.Close()
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchIndex.temp != "" {
		os.RemoveAll(benchIndex.temp)
	}
	os.Exit(code)
}

// BenchmarkApply measures ingest: one Apply of benchBatch fresh chunks per
// iteration into a growing index; reports docs/s.
func BenchmarkApply(b *testing.B) {
	model := newTextModel(b)
	ix := openTemp(b)
	r := rand.New(rand.NewPCG(3, 4))
	batches := make([][]Doc, 8)
	for i := range batches {
		batches[i] = model.docs(r, 0, benchBatch)
	}
	b.ResetTimer()
	for i := range b.N {
		docs := batches[i%len(batches)]
		for j := range docs {
			docs[j].Ord = uint64(i*benchBatch + j)
		}
		if err := ix.Apply(uint64(i+1), nil, docs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*benchBatch)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkSearch measures top-50 BM25 on the 100k-chunk index, warm, and
// reports the median latency.
func BenchmarkSearch(b *testing.B) {
	for _, bc := range []struct {
		name   string
		filter base.Filter
	}{
		{"nofilter", nil},
		{"filtered", base.Filter{
			{Field: base.FieldTier, Op: base.OpIn, Values: []string{"T1", "T2"}},
			{Field: base.FieldTime, Op: base.OpGe, Values: []string{"2000-01-01"}},
		}},
		{"patient", base.Filter{{Field: base.FieldPatient, Op: base.OpEq, Values: []string{"P042"}}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			dir, model := sharedIndex(b)
			ix, err := Open(dir, &Options{ReadOnly: true})
			if err != nil {
				b.Fatal(err)
			}
			defer ix.Close()
			ctx := context.Background()
			for _, q := range model.queries { // warm up
				if _, err := ix.Search(ctx, q, 50, bc.filter); err != nil {
					b.Fatal(err)
				}
			}
			lat := make([]time.Duration, 0, b.N)
			cpu0 := cpuTime(b)
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				if _, err := ix.Search(ctx, model.queries[i%len(model.queries)], 50, bc.filter); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(start))
			}
			b.StopTimer()
			b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}

// cpuTime returns the CPU time this process has used. On a shared machine
// it is a steadier measure of a query's cost than wall time, though it also
// counts scorch's background merging.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkOpen measures opening the 100k-chunk index read-only and
// read-write (including the first Seq).
func BenchmarkOpen(b *testing.B) {
	for _, ro := range []bool{true, false} {
		b.Run(fmt.Sprintf("readonly=%v", ro), func(b *testing.B) {
			dir, _ := sharedIndex(b)
			b.ResetTimer()
			for range b.N {
				ix, err := Open(dir, &Options{ReadOnly: ro})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := ix.Seq(); err != nil {
					b.Fatal(err)
				}
				if err := ix.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
