package text

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/shareddata"
)

func TestChunk(t *testing.T) {
	tok := newTestTokenizer(t)
	tests := []struct {
		name string
		in   string
		max  int
		want []string
	}{
		{"empty", "", 50, nil},
		{"fits whole", "Chest pain. No fever.", 50, []string{"Chest pain. No fever."}},
		{"one sentence per chunk", "Chest pain for two days. No fever today.", 8,
			[]string{"Chest pain for two days.", "No fever today."}},
		{"chinese joined without space", "患者胸痛。无发热。", 50, []string{"患者胸痛。无发热。"}},
		{"lines joined with a space", "Hemoglobin 14 g/dL\nCreatinine 4.2 mg/dL", 50,
			[]string{"Hemoglobin 14 g/dL Creatinine 4.2 mg/dL"}},
		{"long sentence cut at spaces", "one two three four five six seven eight", 4,
			[]string{"one two three four", "five six seven eight"}},
		{"cap raised to the minimum", "one two three four five six", 1,
			[]string{"one two three four", "five six"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Chunk(tt.in, tt.max, tok)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Chunk(%q, %d)\n got %q\nwant %q", tt.in, tt.max, got, tt.want)
			}
			checkChunks(t, tok, tt.in, max(tt.max, MinChunkTokens), got)
		})
	}
}

// checkChunks asserts the Chunk properties: every chunk within the cap,
// and the chunks give back the input, whitespace aside.
func checkChunks(t *testing.T, tok Tokenizer, in string, maxTokens int, chunks []string) {
	t.Helper()
	for _, c := range chunks {
		if n := tok.Count(c); n > maxTokens {
			t.Fatalf("chunk %q has %d tokens, cap %d", c, n, maxTokens)
		}
	}
	if got, want := stripSpace(strings.Join(chunks, "")), stripSpace(in); got != want {
		t.Fatalf("chunks do not give back the input:\n got %q\nwant %q", got, want)
	}
}

// TestChunkProperties runs the properties over random mixtures of real
// sentences, words and character runs, at caps from tiny to roomy.
func TestChunkProperties(t *testing.T) {
	tok := newTestTokenizer(t)
	rng := rand.New(rand.NewPCG(1, 2))
	parts := []string{
		sampleEnglish, sampleChinese, "Troponin 2.3 ng/mL.", "WBC 12.5×10^9/L；",
		"supercalifragilisticexpialidocious", "肾穿刺病理提示膜性肾病", "\n", " ", "。", "e.g. ",
		strings.Repeat("ABCDEFGHIJ", 30), strings.Repeat("肌酐", 40), "Dr. Li", "1. ",
	}
	for i := range 300 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		in := b.String()
		maxTokens := []int{1, 4, 5, 8, 17, 64, 512}[i%7]
		checkChunks(t, tok, in, max(maxTokens, MinChunkTokens), Chunk(in, maxTokens, tok))
	}
}

func TestChunkCorpus(t *testing.T) {
	tok := newTestTokenizer(t)
	for _, s := range corpusTexts(t) {
		for _, maxTokens := range []int{16, 128} {
			checkChunks(t, tok, s, maxTokens, Chunk(s, maxTokens, tok))
		}
	}
}

// countingTokenizer counts the bytes it is asked to count.
type countingTokenizer struct {
	Tokenizer
	bytes int
}

func (c *countingTokenizer) Count(s string) int {
	c.bytes += len(s)
	return c.Tokenizer.Count(s)
}

// TestChunkLinear holds Chunk to linear work on long texts without the
// spaces and sentence ends it cuts at: a word of one script, a Chinese
// run, digits, tiny sentences, short lines joined without a space. The
// bytes counted may be a small multiple of the input's, where bisecting
// the remaining text counted hundreds of times the input (and took
// minutes for a megabyte); the chunks keep their properties.
func TestChunkLinear(t *testing.T) {
	tok := newTestTokenizer(t)
	const size = 96 << 10
	for _, unit := range []string{"abcdefghij", "肌酐", "1", "x y ", ". ", "a\n", "肌酐\n", "Ab. ", "1. ", "  "} {
		in := strings.Repeat(unit, size/len(unit))
		c := &countingTokenizer{Tokenizer: tok}
		chunks := Chunk(in, 256, c)
		if c.bytes > 12*len(in) {
			t.Errorf("%q x %d: counted %d bytes, %.1f times the input", unit, size/len(unit), c.bytes, float64(c.bytes)/float64(len(in)))
		}
		checkChunks(t, tok, in, 256, chunks)
	}
}

// TestLastFit checks lastFit against a linear scan on monotone step
// costs of many slopes (from many indexes per token to many tokens per
// index, with jumps), and that it takes few probes.
func TestLastFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		n := 1 + rng.IntN(5000)
		costs := make([]int, n)
		sum := rng.IntN(3)
		perIndex := []float64{0.01, 0.2, 1, 3}[rng.IntN(4)]
		acc := 0.0
		for i := range costs {
			acc += perIndex * (0.5 + rng.Float64())
			if rng.IntN(200) == 0 {
				acc += float64(rng.IntN(50)) // a long word
			}
			costs[i] = sum + int(acc)
		}
		limit := rng.IntN(300)
		want := -1
		for i, c := range costs {
			if c <= limit {
				want = i
			}
		}
		probes := 0
		got, _ := lastFit(0, n-1, limit, func(j int) int { probes++; return costs[j] })
		if got != want {
			t.Fatalf("lastFit over %d costs (%.2f per index) with limit %d = %d, want %d", n, perIndex, limit, got, want)
		}
		if probes > 3*bits.Len(uint(n))+4 {
			t.Fatalf("lastFit over %d costs (%.2f per index) took %d probes", n, perIndex, probes)
		}
	}
}

func FuzzChunk(f *testing.F) {
	f.Add("Chest pain. No fever.", 5)
	f.Add(sampleChinese, 7)
	f.Add("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa bbbb", 4)
	tok, err := NewTokenizer()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string, maxTokens int) {
		s = strings.ToValidUTF8(s, "\uFFFD") // see FuzzSentences
		maxTokens = max(maxTokens%600, MinChunkTokens)
		checkChunks(t, tok, s, maxTokens, Chunk(s, maxTokens, tok))
	})
}

func BenchmarkChunk(b *testing.B) {
	tok := newTestTokenizer(b)
	for _, bc := range []struct {
		name string
		text string
		max  int
	}{
		{"en-80-words-fits", sampleEnglish, 256},
		{"en-80-words-cap-32", sampleEnglish, 32},
		{"zh-cap-32", sampleChinese, 32},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Chunk(bc.text, bc.max, tok)
			}
		})
	}
}

// BenchmarkChunkMedQA chunks all MedQA vignettes (about 120 words each)
// with a fresh tokenizer per round, so new words are counted the slow way
// as on a first ingest; it reports documents per second.
func BenchmarkChunkMedQA(b *testing.B) {
	path := shareddata.Path(b, "medqa", "medqa_test.jsonl")
	texts := readJSONLField(b, path, "question")
	b.ReportAllocs()
	for b.Loop() {
		tok := newTestTokenizer(b)
		for _, s := range texts {
			Chunk(s, 128, tok)
		}
	}
	b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "docs/s")
}
