package text

import (
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
