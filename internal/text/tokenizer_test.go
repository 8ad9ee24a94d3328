package text

import (
	"strings"
	"sync"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

func newTestTokenizer(tb testing.TB) Tokenizer {
	tb.Helper()
	tok, err := NewTokenizer()
	if err != nil {
		tb.Fatal(err)
	}
	return tok
}

func TestCount(t *testing.T) {
	tok := newTestTokenizer(t)
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"tiktoken is great!", 6},
	}
	for _, tt := range tests {
		if got := tok.Count(tt.in); got != tt.want {
			t.Errorf("Count(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
	for _, s := range []string{"肌酐2.8mg/dL", "Troponin 2.3 ng/mL", "\xff\xfe"} {
		if n := tok.Count(s); n < 1 || n > len(s) {
			t.Errorf("Count(%q) = %d, want between 1 and %d", s, n, len(s))
		}
	}
}

// TestMaxTokenBytes checks the bound fits relies on: no cl100k_base token
// is longer than maxTokenBytes, and one is that long.
func TestMaxTokenBytes(t *testing.T) {
	codec, err := tokenizer.Get(tokenizer.Cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
	longest := 0
	for id := range uint(100256) { // the ordinary tokens; specials follow
		if s, err := codec.Decode([]uint{id}); err == nil {
			longest = max(longest, len(s))
		}
	}
	if longest != maxTokenBytes {
		t.Fatalf("the longest cl100k_base token has %d bytes, maxTokenBytes is %d", longest, maxTokenBytes)
	}
}

// TestCountConcurrent runs one tokenizer from several goroutines; under
// -race it checks the shared codec is safe, and it checks the counts agree.
func TestCountConcurrent(t *testing.T) {
	tok := newTestTokenizer(t)
	inputs := []string{sampleEnglish, sampleChinese, "hello world"}
	want := make([]int, len(inputs))
	for i, s := range inputs {
		want[i] = tok.Count(s)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*len(inputs))
	for range 8 {
		wg.Go(func() {
			for i, s := range inputs {
				if got := tok.Count(s); got != want[i] {
					errs <- strings.Repeat("x", got)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if n := len(errs); n > 0 {
		t.Fatalf("%d concurrent counts disagreed with the sequential ones", n)
	}
}

// sampleEnglish is an 80-word note, the size of a typical ingested document.
const sampleEnglish = `A 61-year-old man comes to the emergency department because of crushing
substernal chest pain for 2 hours. His temperature is 37.2°C, pulse is 104/min, and
blood pressure is 150/92 mm Hg. An ECG shows ST-segment elevation in leads II, III and
aVF. Serum troponin I is 2.3 ng/mL. He is allergic to penicillin, which caused
anaphylaxis in 2012. He has smoked one pack daily for 30 years and has type 2 diabetes
treated with metformin.`

const sampleChinese = `患者男性，58岁，因反复双下肢水肿3月入院。查体：血压150/95mmHg，
双下肢凹陷性水肿。血肌酐256μmol/L，尿蛋白(+++)，24小时尿蛋白定量4.2g。肾脏超声示双肾
大小正常，皮质回声增强。肾穿刺病理提示膜性肾病。否认药物过敏史。`

func BenchmarkCount(b *testing.B) {
	tok := newTestTokenizer(b)
	b.Run("en-80-words", func(b *testing.B) {
		b.SetBytes(int64(len(sampleEnglish)))
		b.ReportAllocs()
		for b.Loop() {
			tok.Count(sampleEnglish)
		}
	})
	b.Run("zh", func(b *testing.B) {
		b.SetBytes(int64(len(sampleChinese)))
		b.ReportAllocs()
		for b.Loop() {
			tok.Count(sampleChinese)
		}
	})
	b.Run("en-80-words-parallel", func(b *testing.B) {
		b.SetBytes(int64(len(sampleEnglish)))
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				tok.Count(sampleEnglish)
			}
		})
	})
}

// TestCountExact checks the memoising counter against the library on every
// text at hand: the samples, the project corpus, and MedQA when present.
func TestCountExact(t *testing.T) {
	tok := newTestTokenizer(t)
	codec := tok.(*cl100k).codec
	texts := []string{sampleEnglish, sampleChinese, "don't won't I'll 'S 'LL", "a  b   c \n\n d\t\te",
		"x.\n\ny", "(+)（++）阳性；WBC 12.5×10^9/L", "4～5cm, 8 mm × 6 mm", "100.4°F) 125/85 mm Hg"}
	texts = append(texts, corpusTexts(t)...)
	for _, s := range texts {
		want, err := codec.Count(s)
		if err != nil {
			t.Fatal(err)
		}
		// Twice: the first call fills the memo, the second reads it.
		for range 2 {
			if got := tok.Count(s); got != want {
				t.Fatalf("Count(%q) = %d, library says %d", s, got, want)
			}
		}
	}
}

func FuzzCount(f *testing.F) {
	for _, s := range []string{sampleEnglish, sampleChinese, "it's 2.3 ng/mL", "a \n b", "\xff 'S"} {
		f.Add(s)
	}
	tok, err := NewTokenizer()
	if err != nil {
		f.Fatal(err)
	}
	codec := tok.(*cl100k).codec
	f.Fuzz(func(t *testing.T, s string) {
		want, err := codec.Count(s)
		if err != nil {
			t.Skip()
		}
		if got := tok.Count(s); got != want {
			t.Fatalf("Count(%q) = %d, library says %d", s, got, want)
		}
	})
}

// checkCountAround compares CountAround with the library's count of the
// joined text.
func checkCountAround(t *testing.T, tok Tokenizer, before, s, after string) {
	t.Helper()
	want, err := tok.(*cl100k).codec.Count(before + s + after)
	if err != nil {
		t.Skip()
	}
	if got := CountAround(tok.Count, before, s, after, tok.Count(s)); got != want {
		t.Fatalf("CountAround(%q, %q, %q) = %d, the joined text counts %d", before, s, after, got, want)
	}
}

func TestCountAround(t *testing.T) {
	tok := newTestTokenizer(t)
	texts := []string{"", "x", "x.", "hello world", " leading space", "trailing space ", "ends.\n",
		"2.3 ng/mL", "否认药物过敏史。", sampleEnglish, sampleChinese}
	texts = append(texts, corpusTexts(t)...)
	for _, s := range texts {
		for _, around := range [][2]string{{"", ""}, {"[12] T2 2023-09-12: ", "\n"}, {"[1] T1 compressed:", "\n\n"}, {"x", "y"}} {
			checkCountAround(t, tok, around[0], s, around[1])
		}
	}
}

func FuzzCountAround(f *testing.F) {
	for _, s := range []string{sampleEnglish, sampleChinese, "it's 2.3 ng/mL.", "a \n b", "\xff 'S"} {
		f.Add("[1] T1: ", s, "\n")
	}
	tok, err := NewTokenizer()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, before, s, after string) {
		checkCountAround(t, tok, before, s, after)
	})
}
