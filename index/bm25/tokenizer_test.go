package bm25

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
)

// The tests below hold asciiTokenizer to bleve's unicode tokenizer,
// token for token and field for field, on every short string over one
// representative of each ASCII class, on random strings heavy in the
// characters that join or split words, on the repository's texts and
// NFCorpus, and (FuzzASCIITokenizer) on arbitrary bytes.

// sameTokens reports how got differs from want, the unicode tokenizer's
// stream for input, or "" when they agree in every field (the capacity
// of each term included, since filters may rewrite terms in place).
func sameTokens(input []byte, got, want analysis.TokenStream) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%q: %d tokens %s, want %d %s", input, len(got), got, len(want), want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if !bytes.Equal(g.Term, w.Term) || cap(g.Term) != cap(w.Term) || g.Start != w.Start || g.End != w.End ||
			g.Position != w.Position || g.Type != w.Type || g.KeyWord != w.KeyWord {
			return fmt.Sprintf("%q: token %d is %s (cap %d), want %s (cap %d)", input, i, g, cap(g.Term), w, cap(w.Term))
		}
	}
	return ""
}

func checkTokens(t testing.TB, fast *asciiTokenizer, slow analysis.Tokenizer, input []byte) {
	t.Helper()
	if diff := sameTokens(input, fast.Tokenize(input), slow.Tokenize(input)); diff != "" {
		t.Fatal(diff)
	}
}

// TestASCIITokenizerExhaustive tries every string of up to five
// characters over one character of each class that matters to word
// segmentation, and a few that do not.
func TestASCIITokenizerExhaustive(t *testing.T) {
	fast, slow := newASCIITokenizer(), unicode.NewUnicodeTokenizer()
	alphabet := []byte("a1_.':,;\"\r\n\v -")
	maxLen := 5
	if testing.Short() {
		maxLen = 4
	}
	buf := make([]byte, 0, maxLen)
	var walk func()
	walk = func() {
		checkTokens(t, fast, slow, buf)
		if len(buf) == maxLen {
			return
		}
		for _, c := range alphabet {
			buf = append(buf, c)
			walk()
			buf = buf[:len(buf)-1]
		}
	}
	walk()
}

// trickyASCII draws random ASCII text: words and numbers glued by the
// characters that join them (. , ; : ' _), and the spaces, line breaks,
// quotes, other punctuation and control characters that split them.
func trickyASCII(r *rand.Rand, n int) []byte {
	pieces := []string{
		"a", "Z", "q", "mg", "IL", "x", "0", "7", "12", "3",
		".", ".", ",", ",", ";", ":", ":", "'", "'", "_", "_",
		"-", "/", " ", " ", "\n", "\r", "\r\n", "\t", "\v", "\f", "\"",
		"(", ")", "%", "+", "<", "=", "@", "#", "\\", "`", "~",
		"\x00", "\x01", "\x1f", "\x7f",
	}
	var b []byte
	for len(b) < n {
		b = append(b, pieces[r.IntN(len(pieces))]...)
	}
	return b
}

func TestASCIITokenizerRandom(t *testing.T) {
	fast, slow := newASCIITokenizer(), unicode.NewUnicodeTokenizer()
	rounds := 50_000
	if testing.Short() {
		rounds = 5_000
	}
	seed := rand.Uint64()
	r := rand.New(rand.NewPCG(seed, 1))
	for range rounds {
		input := trickyASCII(r, r.IntN(48))
		if diff := sameTokens(input, fast.Tokenize(input), slow.Tokenize(input)); diff != "" {
			t.Fatalf("seed %d: %s", seed, diff)
		}
	}
}

// TestASCIITokenizerTexts compares whole texts: every file of the
// repository's testdata (English and Chinese), each of its lines and each
// JSON string in them, and, without -short, NFCorpus's test documents
// (the file and each document) when present.
func TestASCIITokenizerTexts(t *testing.T) {
	fast, slow := newASCIITokenizer(), unicode.NewUnicodeTokenizer()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "*", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	var ascii int
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		texts := [][]byte{data}
		for line := range bytes.Lines(data) {
			texts = append(texts, line)
			var fields map[string]any
			if json.Unmarshal(line, &fields) == nil {
				for _, v := range fields {
					if s, ok := v.(string); ok {
						texts = append(texts, []byte(s))
					}
				}
			}
		}
		for _, text := range texts {
			if isASCII(text) {
				ascii++
			}
			checkTokens(t, fast, slow, text)
		}
	}
	if ascii == 0 {
		t.Error("no ASCII text in testdata: the fast path went untested")
	}

	if testing.Short() {
		t.Skip("NFCorpus takes seconds under -race")
	}
	data, err := os.ReadFile(nfcorpusDocs())
	if err != nil {
		t.Skipf("NFCorpus absent: %v", err)
	}
	checkTokens(t, fast, slow, data)
	for line := range bytes.Lines(data) {
		checkTokens(t, fast, slow, line)
	}
}

// TestTextAnalyzerUsesASCIITokenizer checks that the analyzer that
// indexes a batch (memoAnalyzer) runs asciiTokenizer while the mapping
// keeps naming bleve's unicode tokenizer (so an index's saved mapping and
// schema are unchanged), and that both analyse testdata (and, without
// -short, NFCorpus) to the same tokens.
func TestTextAnalyzerUsesASCIITokenizer(t *testing.T) {
	m, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	old, ok := m.AnalyzerNamed(textAnalyzer).(*analysis.DefaultAnalyzer)
	if !ok {
		t.Fatalf("text analyzer is %T", m.AnalyzerNamed(textAnalyzer))
	}
	if _, ok := old.Tokenizer.(*unicode.UnicodeTokenizer); !ok {
		t.Fatalf("the mapping's text analyzer tokenizes with %T", old.Tokenizer)
	}
	text := memoAnalyzer(old).(*analysis.DefaultAnalyzer)
	if _, ok := text.Tokenizer.(*asciiTokenizer); !ok {
		t.Fatalf("memoAnalyzer tokenizes with %T", text.Tokenizer)
	}

	texts := []string{"Patients' fevers were treated; the fever fell at 10:30, 38.5 C.", "患者发热三天，体温 39.5℃"}
	paths := []string{filepath.Join("..", "..", "testdata", "corpus", "docs.jsonl")}
	if !testing.Short() {
		paths = append(paths, nfcorpusDocs()) // when present; seconds under -race
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		texts = append(texts, strings.Split(string(data), "\n")...)
	}
	for _, s := range texts {
		got, want := text.Analyze([]byte(s)), old.Analyze([]byte(s))
		if len(got) != len(want) {
			t.Fatalf("%q: %d terms, want %d", s, len(got), len(want))
		}
		for i := range want {
			if g, w := got[i], want[i]; !bytes.Equal(g.Term, w.Term) || g.Position != w.Position || g.Start != w.Start || g.End != w.End || g.Type != w.Type {
				t.Fatalf("%q: term %d is %s, want %s", s, i, g, w)
			}
		}
	}
}

func nfcorpusDocs() string {
	root := os.Getenv("MEDKB_DATA")
	if root == "" {
		root = filepath.Join("..", "..", "..", "shared", "data")
	}
	return filepath.Join(root, "nfcorpus", "test.docs")
}

// FuzzASCIITokenizer compares the two tokenizers on arbitrary input:
// ASCII goes through asciiTokenizer's own segmentation, anything else
// through its delegation to the unicode tokenizer.
func FuzzASCIITokenizer(f *testing.F) {
	for _, s := range []string{
		"", "a", "1", "_", "e.g. 3.5 mg/dL", "o'clock 1,000,000 10:30 a:b", "x_1 _ __ 1_ _1 a._b 1.,2",
		"line\r\nbreak\rand\nmore\v\f", "\x00\x7f\"quoted\"", "患者发热 39.5℃", "naïve café", "\xff\xfe a.b",
	} {
		f.Add([]byte(s))
	}
	fast, slow := newASCIITokenizer(), unicode.NewUnicodeTokenizer()
	f.Fuzz(func(t *testing.T, input []byte) {
		if diff := sameTokens(input, fast.Tokenize(input), slow.Tokenize(input)); diff != "" {
			t.Fatal(diff)
		}
	})
}

// BenchmarkTokenizer tokenizes NFCorpus's test documents (or, without
// them, the repository's English corpus) with bleve's unicode tokenizer
// and with asciiTokenizer.
func BenchmarkTokenizer(b *testing.B) {
	texts, size := benchTexts(b)
	for _, tc := range []struct {
		name string
		tok  analysis.Tokenizer
	}{{"unicode", unicode.NewUnicodeTokenizer()}, {"ascii", newASCIITokenizer()}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, t := range texts {
					tc.tok.Tokenize(t)
				}
			}
		})
	}
}

// BenchmarkTextAnalyzer runs the whole text analyzer as Apply does
// (memoAnalyzer) on the texts of BenchmarkTokenizer, with either
// tokenizer: the share of analysis the tokenizer saves.
func BenchmarkTextAnalyzer(b *testing.B) {
	texts, size := benchTexts(b)
	m, err := newMapping()
	if err != nil {
		b.Fatal(err)
	}
	text := m.AnalyzerNamed(textAnalyzer).(*analysis.DefaultAnalyzer)
	for _, tc := range []struct {
		name string
		tok  analysis.Tokenizer
	}{{"unicode", unicode.NewUnicodeTokenizer()}, {"ascii", newASCIITokenizer()}} {
		b.Run(tc.name, func(b *testing.B) {
			an := memoAnalyzer(text).(*analysis.DefaultAnalyzer)
			an.Tokenizer = tc.tok // memoAnalyzer's own choice is asciiTokenizer
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, t := range texts {
					an.Analyze(t)
				}
			}
		})
	}
}

// benchTexts returns the texts of NFCorpus's test documents or, without
// them, of the repository's corpus, and their total size.
func benchTexts(b *testing.B) (texts [][]byte, size int64) {
	if data, err := os.ReadFile(nfcorpusDocs()); err == nil {
		for line := range bytes.Lines(data) {
			if _, text, ok := bytes.Cut(line, []byte("\t")); ok {
				texts = append(texts, bytes.TrimSuffix(text, []byte("\n")))
			}
		}
	} else {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", "docs.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		for line := range bytes.Lines(data) {
			var d struct{ Text string }
			if json.Unmarshal(line, &d) == nil && d.Text != "" {
				texts = append(texts, []byte(d.Text))
			}
		}
	}
	for _, t := range texts {
		size += int64(len(t))
	}
	return texts, size
}
