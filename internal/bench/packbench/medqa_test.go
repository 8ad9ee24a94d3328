package packbench

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/golden"
	"github.com/medkb/medkb/internal/shareddata"
	"github.com/medkb/medkb/planner/pack"
)

var medqaN = flag.Int("medqa", 40, "MedQA vignettes for TestMedQA (the paper's protocol is 200; about 10 s)")

// TestMedQA runs the paper's benchmark on MedQA vignettes (40 by default
// to keep the suite fast; -medqa=200 for the paper's protocol) and holds
// it to the paper's finding: at every window Ebm retains at least as much
// critical evidence as FIFO, semantic and uniform packing, all of it at
// the largest window, with nearly Exact's utility. Tuning on the
// validation sample must report the best row it found. At the default
// size both tables are pinned (testdata/report_medqa.golden), so a change
// to the classifier, compressor or packer that moves a number shows in
// review; the table is logged beside the paper's Table 1.
func TestMedQA(t *testing.T) {
	path := shareddata.Path(t, "medqa", "medqa_test.jsonl")
	if testing.Short() {
		t.Skip("MedQA benchmark skipped in -short mode")
	}
	test, _, err := MedQACases(path, MedQASample{N: *medqaN, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	validation, _, err := MedQACases(path, MedQASample{N: *medqaN, Seed: 1, Validation: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(test) != *medqaN || len(validation) != *medqaN {
		t.Fatalf("got %d test and %d validation cases, want %d each", len(test), len(validation), *medqaN)
	}
	inTest := map[string]bool{}
	for _, c := range test {
		inTest[c.ID] = true
	}
	for _, c := range validation {
		if inTest[c.ID] {
			t.Fatalf("vignette %s is in both the test and the validation sample", c.ID)
		}
	}

	start := time.Now()
	suite, err := Prepare(context.Background(), test, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	prepared := time.Since(start)
	rep, err := suite.Run(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	ebm := rep.RRCE[pack.Ebm.String()]
	for _, win := range rep.Windows {
		w := strconv.Itoa(win)
		for _, st := range []pack.Strategy{pack.FIFO, pack.Semantic, pack.Uniform} {
			if other := rep.RRCE[st.String()][w]; !(ebm[w] >= other) {
				t.Errorf("at %s tokens ebm retains %.3f, %s %.3f", w, ebm[w], st, other)
			}
		}
	}
	if largest := strconv.Itoa(slices.Max(rep.Windows)); ebm[largest] != 1 {
		t.Errorf("ebm retains %.3f at %s tokens, want all", ebm[largest], largest)
	}
	if r := rep.UtilityRatioVsExact; r == nil || *r < 0.98 {
		t.Errorf("ebm/exact utility ratio %v, want at least 0.98", r)
	}
	var sb strings.Builder
	rep.WriteTable(&sb)
	t.Logf("test sample: prepare %v, run %v\n%s\n%s", prepared.Round(time.Millisecond),
		(time.Since(start) - prepared).Round(time.Millisecond), sb.String(), paperTable1)
	tables := sb.String()

	vsuite, err := Prepare(context.Background(), validation, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	tr, err := vsuite.Tune(256, pack.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range slices.Concat(tr.Weights, tr.Decay, tr.Floor) {
		if row.RRCE > tr.Best.RRCE {
			t.Errorf("tuning row %+v beats the best it reports, %+v", row, tr.Best)
		}
	}
	sb.Reset()
	tr.WriteTable(&sb)
	t.Logf("tuning on the validation sample, best %+v\n%s", tr.Best, sb.String())
	if *medqaN == 40 {
		golden.File(t, filepath.Join("testdata", "report_medqa.golden"), tables+"\n"+sb.String())
	}
}

const paperTable1 = `paper's Table 1 (RRCE %, MiniLM embeddings, windows 2048 1024 512 256):
fifo        100.0  63.5  28.6  14.1
semantic    100.0  61.2  41.1  25.7
uniform     100.0 100.0  98.4  65.5
ebm         100.0 100.0  99.0  98.4`

// TestMedQAChinese converts testdata/medqa_zh.jsonl, twenty vignettes
// written for medkb in the Chinese MedQA (MCMLE) layout: no realidx, stems
// that end in "？" or in a cloze ("最可能的诊断是"). The ids fall back to
// line numbers ("medqa-line3"), the question sentence stays out of the segments, and the
// benchmark's table is pinned. Line 10 is not eligible: apart from two
// untyped sentences, all its findings are laboratory ones, one kind of
// segment where the paper asks for two.
func TestMedQAChinese(t *testing.T) {
	path := filepath.Join("testdata", "medqa_zh.jsonl")
	cases, _, err := MedQACases(path, MedQASample{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 19 {
		t.Fatalf("got %d cases, want 19", len(cases))
	}
	for i, c := range cases {
		line := i + 1
		if line >= 10 {
			line++
		}
		if want := fmt.Sprintf("medqa-line%d", line); c.ID != want {
			t.Errorf("case %d has id %q, want %q", i, c.ID, want)
		}
		last := c.Segments[len(c.Segments)-1].Text
		if strings.HasSuffix(last, "？") || strings.HasSuffix(last, "是") {
			t.Errorf("%s: the question %q became a segment", c.ID, last)
		}
		if !strings.Contains(c.Query, " A. ") {
			t.Errorf("%s: query %q lacks the options", c.ID, c.Query)
		}
	}
	if got := cases[0].Segments[0].Text; got != "男，58岁。" {
		t.Errorf("first segment %q, want the stem's first sentence", got)
	}
	goldenTable(t, cases, "report_medqa_zh.golden")
}

// TestMedQAFiles: MedQA files as they come (a byte-order mark, blank
// lines) read; what cannot be a MedQA file, or holds too few eligible
// vignettes, is said so.
func TestMedQAFiles(t *testing.T) {
	lines, err := os.ReadFile(filepath.Join("testdata", "medqa_zh.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) string {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	first, _, _ := strings.Cut(string(lines), "\n")
	path := write("bom.jsonl", "\ufeff"+first+"\n\n  \n")
	cases, warnings, err := MedQACases(path, MedQASample{N: 3, Seed: 1})
	if err != nil || len(cases) != 1 || len(warnings) != 1 || !strings.Contains(warnings[0], "the sample has 1 vignette, not 3") {
		t.Errorf("one vignette, sample of 3: %d cases, warnings %q, %v", len(cases), warnings, err)
	}
	if _, warnings, _ := MedQACases(path, MedQASample{Seed: 1}); len(warnings) != 0 {
		t.Errorf("every eligible vignette, warned %q", warnings)
	}
	if _, _, err := MedQACases(path, MedQASample{N: 3, Seed: 1, Validation: true}); err == nil ||
		!strings.Contains(err.Error(), "no eligible vignette is left after the sample's 3 (eligible: 1)") {
		t.Errorf("validation after a sample that took every vignette: %v", err)
	}
	if _, _, err := MedQACases(path, MedQASample{Seed: 1, Validation: true}); err == nil || !strings.Contains(err.Error(), "needs a size") {
		t.Errorf("validation without a size: %v", err)
	}
	for _, tc := range []struct{ content, want string }{
		{`{"id": "a", "query": "q", "segments": []}`, `no line has a "question"`},
		{`{"question": "Hi?", "options": {"A": "x"}}`, "none of 1 vignette is eligible"},
		{first + "\n[1]", ":2: want an object, got array"},
		{`{"question": 5}`, ":1: question: want a string, got number"},
	} {
		if _, _, err := MedQACases(write("bad.jsonl", tc.content), MedQASample{Seed: 1}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error naming %q", tc.content, err, tc.want)
		}
	}
}

func TestJoinHeadings(t *testing.T) {
	for _, tc := range []struct {
		in, want []string
	}{
		{[]string{"He is pale.", "Laboratory studies show:", "Serum:", "Na+: 139 mEq/L", "K+: 6.3 mEq/L"},
			[]string{"He is pale.", "Laboratory studies show: Serum: Na+: 139 mEq/L", "K+: 6.3 mEq/L"}},
		{[]string{"实验室检查：", "血红蛋白 90g/L。"}, []string{"实验室检查：血红蛋白 90g/L。"}},
		// A sentence with a key is evidence, not a heading.
		{[]string{"Creatinine rose to 2.8 mg/dL:", "BUN 40 mg/dL"}, []string{"Creatinine rose to 2.8 mg/dL:", "BUN 40 mg/dL"}},
		{[]string{"At 12 months the groups held:", "A 40"}, []string{"At 12 months the groups held: A 40"}},
		{[]string{"Results:"}, []string{"Results:"}},
		{nil, nil},
	} {
		if got := joinHeadings(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("joinHeadings(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzMedQA: whatever the file, the converter returns an error that names
// it, or at most N cases that a case file holds as they are: each with a
// query and a signal segment, under its own id, and read back unchanged.
func FuzzMedQA(f *testing.F) {
	raw, err := os.ReadFile(filepath.Join("testdata", "medqa_zh.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	first, _, _ := strings.Cut(string(raw), "\n")
	f.Add(string(raw), uint8(3), false)
	f.Add("\ufeff"+first+"\n\n", uint8(0), true)
	f.Add(`{"question": "A 45-year-old man has chest pain. Troponin I is 2.3 ng/mL. ECG shows ST elevation in V1-V4. Which is the next step?", "options": {"A": "PCI", "B": "CT"}}`, uint8(1), false)
	f.Add(`{"question": "Results:\nNa+: 139 mEq/L\nWhat?", "options": {}}`+"\n[1]", uint8(2), true)
	f.Fuzz(func(t *testing.T, in string, n uint8, questionOnly bool) {
		cases, _, err := readMedQA(strings.NewReader(in), "fuzz.jsonl", MedQASample{N: int(n), Seed: 1, QuestionOnly: questionOnly})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.jsonl") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if len(cases) == 0 || (n > 0 && len(cases) > int(n)) {
			t.Fatalf("%d cases for a sample of %d", len(cases), n)
		}
		ids := map[string]bool{}
		for _, c := range cases {
			if ids[c.ID] {
				t.Fatalf("two cases are %q", c.ID)
			}
			ids[c.ID] = true
			if strings.TrimSpace(c.Query) == "" || !slices.ContainsFunc(c.Segments, func(s Segment) bool { return s.Signal }) {
				t.Fatalf("case %q has no query or no signal segment: %+v", c.ID, c)
			}
		}
		if warnings := readBack(t, cases); len(warnings) > 0 {
			t.Fatalf("a case file warns about the cases: %q", warnings)
		}
	})
}
