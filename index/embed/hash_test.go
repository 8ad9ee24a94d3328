package embed

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/golden"
)

func embedOne(t testing.TB, e Embedder, text string) []float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatal(err)
	}
	return v[0]
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestHashBasics(t *testing.T) {
	e := NewHash(0)
	if e.Name() != "hash-v1" || e.Dim() != DefaultHashDim {
		t.Fatalf("NewHash(0): name %q dim %d", e.Name(), e.Dim())
	}
	if d := NewHash(100).Dim(); d != 100 {
		t.Errorf("NewHash(100).Dim() = %d", d)
	}
	v := embedOne(t, e, "Fasting glucose 7.2 mmol/L, HbA1c 8.1%")
	if len(v) != DefaultHashDim {
		t.Fatalf("len = %d", len(v))
	}
	if n := dot(v, v); math.Abs(n-1) > 1e-5 {
		t.Errorf("squared norm %v, want 1", n)
	}
	for _, text := range []string{"", "  ", "!!! ... ---", "的了是"} {
		if v := embedOne(t, e, text); slices.ContainsFunc(v, func(f float32) bool { return f != 0 }) {
			t.Errorf("%q has no features but got a non-zero vector", text)
		}
	}
}

func TestHashDeterministic(t *testing.T) {
	text := "Tumours of the breast; 乳腺肿瘤的内分泌治疗"
	a := embedOne(t, NewHash(64), text)
	b := embedOne(t, NewHash(64), text)
	if !slices.Equal(a, b) {
		t.Error("two embedders disagree on the same text")
	}
	// A large batch goes through several goroutines and pooled buffers;
	// every row must still equal the text embedded alone.
	texts := make([]string, 200)
	for i := range texts {
		texts[i] = fmt.Sprintf("patient %d reports headache and nausea, 第%d天", i, i)
	}
	e := NewHash(64)
	batch, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		if !slices.Equal(batch[i], embedOne(t, NewHash(64), text)) {
			t.Fatalf("row %d differs from embedding %q alone", i, text)
		}
	}
}

func TestHashCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewHash(0).Embed(ctx, []string{"a"}); err == nil {
		t.Error("Embed with a cancelled context succeeded")
	}
}

// TestHashSimilarity checks that the embedder is a useful vector arm:
// texts that share words or characters score clearly above unrelated
// ones, in English and in Chinese.
func TestHashSimilarity(t *testing.T) {
	e := NewHash(0)
	cases := []struct{ a, similar, unrelated string }{
		{
			"Breast tumors treated with tamoxifen",
			"tamoxifen therapy for a breast tumor",
			"The patient reports chest pain radiating to the left arm",
		},
		{
			"acute chest pain radiating to the left arm",
			"Chest pains that radiate down the left arm",
			"statin use and breast cancer survival in a cohort study",
		},
		{
			"Type 2 diabetes mellitus with poor glycaemic control",
			"poorly controlled diabetes, HbA1c 9%",
			"fracture of the left femur after a fall",
		},
		{
			"风寒感冒的治疗方法",
			"风寒感冒证如何治疗",
			"肝火上扰心神，失眠多梦",
		},
		{
			"长期忧虑导致肝气郁结",
			"肝气郁结，情志不舒",
			"外感风热，咽喉肿痛",
		},
	}
	for _, c := range cases {
		a := embedOne(t, e, c.a)
		sim := dot(a, embedOne(t, e, c.similar))
		unrel := dot(a, embedOne(t, e, c.unrelated))
		if sim < 0.25 || sim < unrel+0.2 {
			t.Errorf("%q: similar %q scores %.3f, unrelated %q %.3f; want similar >= 0.25 and 0.2 above unrelated",
				c.a, c.similar, sim, c.unrelated, unrel)
		}
	}
}

func TestStem(t *testing.T) {
	for w, want := range map[string]string{
		"tumors": "tumor", "tumor": "tumor", "studies": "study", "study": "study",
		"patches": "patch", "boxes": "box", "masses": "mass", "mass": "mass",
		"virus": "virus", "analysis": "analysis", "lesions": "lesion",
		"has": "has", "ies": "ies", "días": "día", "风寒s": "风寒",
	} {
		prefix, letter := stem([]byte(w))
		got := string(prefix)
		if letter != 0 {
			got += string(letter)
		}
		if got != want {
			t.Errorf("stem(%q) = %q, want %q", w, got, want)
		}
	}
}

func TestTokenize(t *testing.T) {
	var f featurizer
	f.tokenize("CT检查: Négatif! 5mg/d, 肝火-上扰")
	var got []string
	for _, tok := range f.tokens {
		s := string(f.text[tok.start:tok.end])
		if tok.cjk {
			s = "cjk:" + s
		}
		got = append(got, s)
	}
	want := []string{"ct", "cjk:检查", "négatif", "5mg", "d", "cjk:肝火", "cjk:上扰"}
	if !slices.Equal(got, want) {
		t.Errorf("tokens %q, want %q", got, want)
	}
	if s := string(f.text); s != " ct 检查 négatif 5mg d 肝火 上扰 " {
		t.Errorf("text %q", s)
	}
}

// TestHashGolden pins hash-v1: any change to its vectors shows here and
// must come with a new embedder name.
func TestHashGolden(t *testing.T) {
	texts := []string{
		"Breast tumors treated with tamoxifen",
		"tamoxifen therapy for a breast tumor",
		"acute chest pain radiating to the left arm",
		"Fasting glucose 7.2 mmol/L; no known allergies",
		"风寒感冒的治疗方法",
		"风寒感冒证如何治疗",
	}
	e := NewHash(DefaultHashDim)
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s dim %d: non-zero coordinates and the first of them\n", e.Name(), e.Dim())
	for i, v := range vecs {
		fmt.Fprintf(&b, "%d %q nonzero=%d", i, texts[i], countNonZero(v))
		for j, shown := 0, 0; j < len(v) && shown < 4; j++ {
			if v[j] != 0 {
				fmt.Fprintf(&b, " [%d]=%.4f", j, v[j])
				shown++
			}
		}
		b.WriteByte('\n')
	}
	b.WriteString("# cosine similarities\n")
	for i := range vecs {
		for j := range vecs {
			fmt.Fprintf(&b, "%7.3f", dot(vecs[i], vecs[j]))
		}
		b.WriteByte('\n')
	}
	golden.File(t, filepath.Join("testdata", "hash-v1.golden"), b.String())
}

func countNonZero(v []float32) int {
	n := 0
	for _, f := range v {
		if f != 0 {
			n++
		}
	}
	return n
}

func FuzzHashEmbed(f *testing.F) {
	for _, s := range []string{"", "Breast tumors", "风寒感冒的治疗", "a\xffb", "x-ray 5mg/kg ÉTUDES", strings.Repeat("word ", 2000)} {
		f.Add(s)
	}
	e := NewHash(32)
	f.Fuzz(func(t *testing.T, s string) {
		v := embedOne(t, e, s)
		n := dot(v, v)
		if n != 0 && math.Abs(n-1) > 1e-4 {
			t.Fatalf("squared norm %v for %q", n, s)
		}
		if !slices.Equal(v, embedOne(t, e, s)) {
			t.Fatalf("not deterministic for %q", s)
		}
	})
}

// syntheticDocs returns n documents of about words words drawn from a
// small clinical vocabulary, deterministically.
func syntheticDocs(n, words int) []string {
	vocab := strings.Fields(`patient patients reports reported chest pain radiating left arm
		acute chronic fever cough dyspnea tachycardia hypertension diabetes mellitus
		glucose insulin hba1c mmol tumor tumors breast cancer carcinoma tamoxifen
		statin survival cohort study trial randomized placebo controlled dose daily
		mg kg blood pressure heart rate ecg troponin elevated normal negative positive
		history family smoking alcohol allergy penicillin the of and with in to for a
		no denies shows revealed imaging ct mri lesion mass biopsy treatment therapy`)
	rng := rand.New(rand.NewPCG(11, 13))
	docs := make([]string, n)
	var b strings.Builder
	for i := range docs {
		b.Reset()
		for j := range words {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(vocab[rng.IntN(len(vocab))])
		}
		docs[i] = b.String()
	}
	return docs
}

// BenchmarkHashEmbed reports ns per ~80-word document, embedding batches
// of 1,000 on all cores (ns/doc) and on one goroutine (single/ns/doc).
func BenchmarkHashEmbed(b *testing.B) {
	docs := syntheticDocs(1000, 80)
	b.Run("batch", func(b *testing.B) {
		e := NewHash(DefaultHashDim)
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := e.Embed(ctx, docs); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(docs)), "ns/doc")
	})
	b.Run("single", func(b *testing.B) {
		var f featurizer
		dst := make([]float32, DefaultHashDim)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			f.embed(docs[i%len(docs)], dst)
			i++
		}
	})
}

func TestNamed(t *testing.T) {
	for _, tc := range []struct {
		name string
		dim  int
		url  string
		want string // Name and Dim, or the error's text
	}{
		{"hash-v1", 0, "", "hash-v1 384"},
		{"hash-v1", 768, "", "hash-v1 768"},
		{"openai:bge-m3", 1024, "http://localhost:11434", "openai:bge-m3 1024"},
		{"openai:bge-m3", 0, "http://localhost:11434", "dimension 0"},
		{"openai:bge-m3", 1024, "", "not an http(s) URL"},
		{"openai:", 1024, "http://localhost:11434", "no model"},
		{"hash-v1", -1, "", "dimension -1"},
		{"hash-v2", 0, "", `unknown embedder "hash-v2"`},
	} {
		e, err := Named(tc.name, tc.dim, OpenAIConfig{BaseURL: tc.url, Model: "ignored", Dim: 7})
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = fmt.Sprintf("%s %d", e.Name(), e.Dim())
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("Named(%q, %d, %q) = %q, want %q", tc.name, tc.dim, tc.url, got, tc.want)
		}
	}
}
