package packbench

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/golden"
	"github.com/medkb/medkb/internal/text"
	"github.com/medkb/medkb/planner/pack"
)

func tinyCases(t *testing.T) []Case {
	t.Helper()
	cases, _, err := ReadCasesFile(filepath.Join("testdata", "cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

func tinySuite(t *testing.T, opt Options) *Suite {
	t.Helper()
	s, err := Prepare(context.Background(), tinyCases(t), opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReport pins the whole pipeline on the tiny English and Chinese set:
// noise, tiers, compression, similarity, packing and survival.
func TestReport(t *testing.T) {
	rep, err := tinySuite(t, DefaultOptions()).Run(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	golden.File(t, filepath.Join("testdata", "report.golden"), string(js)+"\n\n"+table.String())
	var svg strings.Builder
	if err := rep.WriteSVG(&svg); err != nil {
		t.Fatal(err)
	}
	golden.File(t, filepath.Join("testdata", "rrce.svg"), svg.String())

	if rep.Cases != 4 || len(rep.ExactRefused) != 0 || rep.RatioPairs == 0 {
		t.Errorf("cases %d, exact refused %v, ratio pairs %d", rep.Cases, rep.ExactRefused, rep.RatioPairs)
	}
	for _, st := range pack.Strategies {
		if len(rep.RRCE[st.String()]) != len(DefaultWindows) {
			t.Errorf("%s: RRCE has %d windows", st, len(rep.RRCE[st.String()]))
		}
	}
	if r := rep.UtilityRatioVsExact; r == nil || *r <= 0 || *r > 1+1e-9 {
		t.Errorf("ebm/exact utility ratio %v outside (0, 1]", r)
	}
}

// TestNothingCountedIsNotZero: where Exact refused every case, or no
// segment is a T1/T2 signal, the report has no value (n/a), not 0; the
// windows come out sorted, and a window given twice is an error.
func TestNothingCountedIsNotZero(t *testing.T) {
	opt := DefaultOptions()
	opt.NoiseRatio = 1000 // thousands of candidates: too many for Exact at 8192 tokens
	s := tinySuite(t, opt)
	cfg := DefaultConfig()
	cfg.Windows = []int{8192, 256}
	rep, err := s.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Windows, []int{256, 8192}) {
		t.Errorf("windows %v, want them sorted", rep.Windows)
	}
	if _, ok := rep.RRCE["exact"]["8192"]; ok || rep.ExactRefused["8192"] != 4 || len(rep.RRCE["ebm"]) != 2 {
		t.Errorf("exact refused %v, RRCE exact %v ebm %v", rep.ExactRefused, rep.RRCE["exact"], rep.RRCE["ebm"])
	}
	var table strings.Builder
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "n/a") || !strings.Contains(table.String(), "exact refused 4 of 4 at 8192 tokens") {
		t.Errorf("table does not say what exact refused:\n%s", table.String())
	}

	cfg.Windows = []int{8192}
	if rep, err = s.Run(cfg); err != nil {
		t.Fatal(err)
	}
	table.Reset()
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if rep.UtilityRatioVsExact != nil || !strings.Contains(table.String(), "utility ratio: n/a") {
		t.Errorf("exact refused every pair, yet the ratio is %v:\n%s", rep.UtilityRatioVsExact, table.String())
	}

	noT1T2 := tinyCases(t)
	for i := range noT1T2 {
		for j := range noT1T2[i].Segments {
			noT1T2[i].Segments[j].Tier = base.T4 // the gold tier decides what counts
		}
	}
	s, err = Prepare(context.Background(), noT1T2, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if rep, err = s.Run(DefaultConfig()); err != nil {
		t.Fatal(err)
	}
	table.Reset()
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if len(rep.RRCE["ebm"]) != 0 || len(rep.KminAblation) != 0 || !strings.Contains(table.String(), "RRCE has nothing to count") {
		t.Errorf("RRCE %v, ablation %v without T1/T2 signals:\n%s", rep.RRCE["ebm"], rep.KminAblation, table.String())
	}

	cfg.Windows = []int{512, 256, 512}
	if _, err := s.Run(cfg); err == nil || !strings.Contains(err.Error(), "window 512 given twice") {
		t.Errorf("windows 512,256,512: %v", err)
	}
}

// TestWithoutNoiseEverythingFits: the tiny cases alone fit in 2048 tokens,
// so every strategy keeps every T1/T2 signal segment whole.
func TestWithoutNoiseEverythingFits(t *testing.T) {
	opt := DefaultOptions()
	opt.NoiseRatio = 0
	cfg := DefaultConfig()
	cfg.Windows = []int{2048}
	rep, err := tinySuite(t, opt).Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for st, row := range rep.RRCE {
		if st == "exact" {
			continue // exact drops zero-utility blocks even when they fit
		}
		if row["2048"] != 1 {
			t.Errorf("%s: RRCE %v at 2048 without noise, want 1", st, row["2048"])
		}
	}
}

func TestSurvivors(t *testing.T) {
	c := &prepared{
		cands: make([]pack.Candidate, 4),
		signal: []signalSeg{
			{cand: 0, keys: foldKeys([]string{"2.8 mg/dL", "5.9 mmol/L"}), tier: base.T2}, // as Prepare folds them
			{cand: 1, keys: []string{"penicillin"}, tier: base.T2},
			{cand: 2, keys: []string{}, tier: base.T2},
			{cand: 3, keys: nil, tier: base.T3},
		},
	}
	res := &pack.Result{Items: []pack.Item{
		{State: pack.StateA, Index: 0, Text: "creatinine 2.8 mg/dL"},         // lost a key: does not survive
		{State: pack.StateA, Index: 2, Text: "no key to keep"},               // no keys: survives when packed
		{State: pack.StateA, Index: 3, Text: "a T3 segment with penicillin"}, // survives, but is not T1/T2
	}}
	if t1t2, all := survivors(res, c); t1t2 != 1 || all != 2 {
		t.Fatalf("survivors = %d T1/T2, %d all; want 1, 2", t1t2, all)
	}
	res.Items[0].Text = "creatinine 2.8 mg/dL; potassium 5.9 mmol/L"
	if t1t2, _ := survivors(res, c); t1t2 != 2 {
		t.Fatalf("with both keys kept: %d T1/T2 survivors, want 2", t1t2)
	}
}

func TestGoldTiers(t *testing.T) {
	opt := DefaultOptions()
	opt.NoiseRatio = 0
	cases := []Case{{ID: "c", Query: "q", Segments: []Segment{
		{ID: "s", Text: "He says his knee hurts.", Tier: base.T1, Signal: true},
	}}}
	for _, gold := range []bool{false, true} {
		opt.GoldTiers = gold
		s, err := Prepare(context.Background(), cases, opt)
		if err != nil {
			t.Fatal(err)
		}
		got := s.cases[0].cands[0].Tier
		if want := map[bool]base.Tier{false: base.T4, true: base.T1}[gold]; got != want {
			t.Errorf("GoldTiers %v: packed tier %s, want %s", gold, got, want)
		}
		if !s.cases[0].signal[0].t1t2() {
			t.Errorf("GoldTiers %v: the gold tier must decide what RRCE counts", gold)
		}
	}
}

func TestAddNoise(t *testing.T) {
	cases := tinyCases(t)
	before, _ := json.Marshal(cases)
	a := AddNoise(cases, DefaultNoiseRatio, 7)
	if after, _ := json.Marshal(cases); string(after) != string(before) {
		t.Fatal("AddNoise modified its input")
	}
	if b := AddNoise(cases, DefaultNoiseRatio, 7); !reflect.DeepEqual(a, b) {
		t.Fatal("AddNoise is not deterministic")
	}
	if c := AddNoise(cases, DefaultNoiseRatio, 8); reflect.DeepEqual(a, c) {
		t.Fatal("AddNoise ignores the seed")
	}
	for i, c := range a {
		signal, noise, boiler := 0, 0, 0
		inOrder := true
		for k, s := range c.Segments {
			if s.Signal {
				signal++
				inOrder = inOrder && k < len(cases[i].Segments)
				continue
			}
			noise++
			if text.Lang(s.Text) != text.Lang(cases[i].Query) {
				t.Errorf("%s: noise %q is not in the case's language", c.ID, s.Text)
			}
			if isBoilerplate(s.Text) {
				boiler++
			}
		}
		if signal != len(cases[i].Segments) || noise != DefaultNoiseRatio*signal {
			t.Errorf("%s: %d signal and %d noise segments, want %d and %d", c.ID, signal, noise, len(cases[i].Segments), DefaultNoiseRatio*signal)
		}
		if want := (noise*4 + 5) / 10; boiler != want {
			t.Errorf("%s: %d boilerplate segments, want %d (40%%)", c.ID, boiler, want)
		}
		if inOrder {
			t.Errorf("%s: signal segments still lead the case; want them shuffled among the noise", c.ID)
		}
	}
}

// isBoilerplate reports whether s is a filled template: its text outside
// the slots matches a template's.
func isBoilerplate(s string) bool {
	for _, tpl := range append(boilerplateEN[:len(boilerplateEN):len(boilerplateEN)], boilerplateZH...) {
		head, _, _ := strings.Cut(tpl, "{")
		lastSlot := strings.LastIndex(tpl, "}")
		if strings.HasPrefix(s, head) && strings.HasSuffix(s, tpl[lastSlot+1:]) {
			return true
		}
	}
	return false
}

func TestReadCasesErrors(t *testing.T) {
	inputs := []string{
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t", "signal": true}]}` + "\n" + `{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t"}]}`,
		`{"id": "a", "query": "q", "segments": []}`,
		`{"id": "a", "segments": [{"id": "s", "text": "t"}]}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "  "}]}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t", "tier": "T5"}]}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t", "tier": 5}]}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t", "time": "yesterday"}]}`,
		`{"id": "a", "query": "q", "now": "2025-13-40", "segments": [{"id": "s", "text": "t"}]}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t"}]`,
		"\n\n" + `{"id": "", "query": "q", "segments": [{"id": "s", "text": "t"}]}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t", "signal": "maybe"}]}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t", "keys": 5}]}`,
		`{"id": {"n": 1}, "query": "q", "segments": [{"id": "s", "text": "t"}]}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t"}, {"id": "u", "text": 5}]}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t", "signal": ""}]}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t", "keys": ""}]}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t", "time": 2025.5}]}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t"}, {"id": "s", "text": "u"}]}`,
		`[{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t"}]}]`,
		`{"id": "a", "query": "q", "segments": {"id": "s", "text": "t"}}`,
		`{"id": "a", "query": "q", "segments": [[{"id": "s", "text": "t"}]]}`,
		`{"id": "a", "query": ["q"], "segments": [{"id": "s", "text": "t"}]}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t"}], "answer": "B"}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t"}], "question": "Which?", "options": {"A": "x"}, "answer": "A"}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t"}], "question": "Which?", "options": {"A": "x", "b": "y"}, "answer": "A"}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t"}], "question": "Which?", "options": {"A": "x", "B": " "}, "answer": "A"}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t"}], "question": "Which?", "options": {"A": "x", "B": "y"}, "answer": "C"}`,
		`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t"}], "question": "Which?", "options": ["x", "y"], "answer": "A"}`,
	}
	var out strings.Builder
	for _, in := range inputs {
		_, _, err := ReadCases(strings.NewReader(in), "cases.jsonl")
		if !errors.Is(err, ErrCase) {
			t.Errorf("input %q: got %v, want ErrCase", in, err)
		}
		out.WriteString(in + "\n=> " + err.Error() + "\n\n")
	}
	golden.File(t, filepath.Join("testdata", "errors.golden"), out.String())
}

// TestReadCasesForgiving reads the spellings other tools write: numbers
// for ids and dates, "true" and 0 for signal, a single key, and a file
// that starts with a UTF-8 byte-order mark.
func TestReadCasesForgiving(t *testing.T) {
	in := "\ufeff" + `{"id": 7, "query": "q", "now": 20250318, "segments": [` +
		`{"text": "Creatinine 2.8 mg/dL.", "tier": 2, "time": 20250317, "signal": "true", "keys": "2.8 mg/dL"},` +
		`{"id": 12, "text": "Tired.", "signal": 0, "keys": []}, {"id": "7/3", "text": "Pale."}, {"text": "Thirsty."}]}`
	cases, warnings, err := ReadCases(strings.NewReader(in), "cases.jsonl")
	if err != nil || len(warnings) != 0 {
		t.Fatalf("got %v, warnings %q", err, warnings)
	}
	c := cases[0]
	a, b := c.Segments[0], c.Segments[1]
	if c.ID != "7" || c.Now != "20250318" || a.ID != "7/1" || a.Time != "20250317" || !a.Signal ||
		!slices.Equal(a.Keys, []string{"2.8 mg/dL"}) || b.ID != "12" || b.Signal || b.Keys == nil || len(b.Keys) != 0 ||
		c.Segments[3].ID != "7/4" {
		t.Errorf("read %+v", c)
	}
}

// TestReadCasesWarnings: what reads but is likely a mistake is reported
// with its place, and the cases still come back.
func TestReadCasesWarnings(t *testing.T) {
	for _, tt := range []struct {
		in      string
		want    []string
		signals int
	}{
		{
			in: `{"id": "a", "query": "q", "source": "ward 3", "segments": [{"id": "s", "text": "Creatinine 2.8mg/dL.", "signl": true, "keys": ["2.8 mg/dL"]}]}
{"id": "b", "query": "q", "source": "ward 4", "Segments": [{"id": "s", "text": "肌酐 2.8mg/dL。", "signl": true, "keys": ["3.1 mg/dL"]}]}`,
			want: []string{
				`cases.jsonl:1: unknown field "source" ignored`,
				`cases.jsonl:1: unknown field "segments[].signl" ignored`,
				`cases.jsonl:2: case "b": segment "s": key "3.1 mg/dL" is not in its text; the segment can never survive`,
				`cases.jsonl:1: 2 case(s), the first here, mark no segment "signal"; all their segments count as signal`,
			},
			signals: 2,
		},
		{
			in: `{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t", "signal": false}, {"id": "n", "text": "u"}]}`,
			want: []string{
				`cases.jsonl: no segment has "signal": true; RRCE has nothing to count`,
			},
		},
		{
			in: `{"id": "a", "query": "q", "segments": [{"id": "s", "text": "ER（90%+），肌酐 2.8mg/dL。", "signal": true, "keys": ["ER(90%+)", "2.8 mg/dL", "3.1 mg/dL"]}, {"id": "n", "text": "noise", "keys": ["absent"]}]}`,
			want: []string{
				`cases.jsonl:1: case "a": segment "s": key "3.1 mg/dL" is not in its text; the segment can never survive`,
			},
			signals: 1,
		},
	} {
		cases, warnings, err := ReadCases(strings.NewReader(tt.in), "cases.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) == 0 {
			t.Fatalf("%s: no cases read", tt.in)
		}
		if !slices.Equal(warnings, tt.want) {
			t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(tt.want, "\n"))
		}
		signals := 0
		for _, c := range cases {
			for _, seg := range c.Segments {
				if seg.Signal {
					signals++
				}
			}
		}
		if signals != tt.signals {
			t.Errorf("%s: %d signal segments, want %d", tt.in, signals, tt.signals)
		}
	}
}

func FuzzReadCases(f *testing.F) {
	raw, err := os.ReadFile(filepath.Join("testdata", "cases.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(raw))
	f.Add(`{"id": "a", "query": "q", "segments": [{"id": "s", "text": "t", "tier": "t2", "keys": []}]}`)
	f.Add(`{"id": "a", "query": "q", "segments": [{"text": "t"}], "question": "Which?", "options": {"A": "x", "B": "y"}, "answer": "B"}`)
	f.Fuzz(func(t *testing.T, in string) {
		cases, _, err := ReadCases(strings.NewReader(in), "fuzz")
		if err != nil {
			return
		}
		readBack(t, cases)
	})
}

// readBack writes cases as a case file, reads it back, fails unless that
// gives the same cases, and returns the reader's warnings.
func readBack(t *testing.T, cases []Case) []string {
	t.Helper()
	var sb strings.Builder
	for _, c := range cases {
		line, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		sb.Write(line)
		sb.WriteByte('\n')
	}
	again, warnings, err := ReadCases(strings.NewReader(sb.String()), "again")
	if err != nil {
		t.Fatalf("re-reading what was read: %v", err)
	}
	if !reflect.DeepEqual(cases, again) {
		t.Fatalf("round trip changed the cases:\n%+v\n%+v", cases, again)
	}
	return warnings
}

// TestChineseCases pins the benchmark on testdata/bench/cases_zh.jsonl:
// 30 Chinese records written for medkb, each asked about with a
// clinician's question that repeats none of its findings (with the lexical
// embedder similarity then says almost nothing, and tier and cost decide),
// and again with the record in the query; and on cases_zh_long.jsonl, 12
// records whose T1/T2 text alone (about 900 tokens a case) outgrows 512.
func TestChineseCases(t *testing.T) {
	for _, tc := range []struct{ file, golden string }{
		{"cases_zh.jsonl", "report_zh"},
		{"cases_zh_long.jsonl", "report_zh_long"},
	} {
		cases, warnings, err := ReadCasesFile(filepath.Join("..", "..", "..", "testdata", "bench", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if len(warnings) > 0 {
			t.Fatalf("%s reads with warnings:\n%s", tc.file, strings.Join(warnings, "\n"))
		}
		goldenTable(t, cases, tc.golden+".golden")
		goldenTable(t, WithRecordInQuery(cases), tc.golden+"_record.golden")
	}
}

// goldenTable runs the benchmark with the default protocol on cases and
// compares its table with testdata/name.
func goldenTable(t *testing.T, cases []Case, name string) {
	t.Helper()
	s, err := Prepare(context.Background(), cases, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := s.Run(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	golden.File(t, filepath.Join("testdata", name), table.String())
}

func TestWithRecordInQuery(t *testing.T) {
	cases := []Case{
		{ID: "en", Query: "Most likely diagnosis?", Segments: []Segment{
			{ID: "a", Text: "Troponin 2.3 ng/mL.", Signal: true}, {ID: "n", Text: "Parking is free."}, {ID: "b", Text: "ST elevation in V1-V4.", Signal: true}}},
		{ID: "zh", Query: "下一步如何处理？", Segments: []Segment{{ID: "a", Text: "肌钙蛋白2.3ng/mL。", Signal: true}}},
	}
	got := WithRecordInQuery(cases)
	if want := "Troponin 2.3 ng/mL. Parking is free. ST elevation in V1-V4. Most likely diagnosis?"; got[0].Query != want {
		t.Errorf("English query %q, want %q", got[0].Query, want)
	}
	if want := "肌钙蛋白2.3ng/mL。下一步如何处理？"; got[1].Query != want {
		t.Errorf("Chinese query %q, want %q", got[1].Query, want)
	}
	if cases[0].Query != "Most likely diagnosis?" || len(got[0].Segments) != 3 {
		t.Errorf("input modified or segments lost: %+v", got[0])
	}
}

func TestTune(t *testing.T) {
	tr, err := tinySuite(t, DefaultOptions()).Tune(512, pack.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Weights) != 35 || len(tr.Decay) != 30 || len(tr.Floor) != len(SimFloorGrid) {
		t.Fatalf("%d weight, %d decay and %d floor rows, want 35, 30 and %d",
			len(tr.Weights), len(tr.Decay), len(tr.Floor), len(SimFloorGrid))
	}
	for _, row := range tr.Weights {
		if row.Alpha < row.Beta || row.Beta < row.Gamma || row.Gamma < 1 {
			t.Fatalf("weights %v break alpha >= beta >= gamma >= 1", row)
		}
	}
	for _, row := range slices.Concat(tr.Weights, tr.Decay, tr.Floor) {
		if row.RRCE > tr.Best.RRCE || (row.RRCE == tr.Best.RRCE && row.Retention > tr.Best.Retention) {
			t.Fatalf("row %+v beats the best %+v", row, tr.Best)
		}
	}
	var sb strings.Builder
	if err := tr.WriteTable(&sb); err != nil {
		t.Fatal(err)
	}
	golden.File(t, filepath.Join("testdata", "tune.golden"), sb.String())
}
