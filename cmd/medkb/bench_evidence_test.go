package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/shareddata"
)

func TestBenchEvidence(t *testing.T) {
	questions := "../../internal/evidence/testdata/cases_questions.jsonl"
	code, out, errOut := cli(t, "", "bench", "evidence", "--questions", questions, "--cases", "../../testdata/bench/cases_zh.jsonl",
		"--untyped", "--windows", "128,256", "--strategies", "ebm, fifo", "--now", "2025-06-01", "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var rep struct {
		Questions int `json:"questions"`
		Groups    []struct {
			Name   string                        `json:"name"`
			Recall map[string]map[string]float64 `json:"recall"`
		} `json:"groups"`
		PerQuestion []json.RawMessage `json:"per_question"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Questions != 4 || len(rep.PerQuestion) != 4 || rep.Groups[0].Name != "all" || len(rep.Groups[0].Recall) != 4 {
		t.Fatalf("bench evidence JSON: %s", out)
	}
	if r := rep.Groups[0].Recall["oracle-whole"]["256"]; r != 1 {
		t.Errorf("the whole-text oracle recalls %v at 256, want all", r)
	}
	code, out, errOut = cli(t, "", "bench", "evidence", "--questions", questions, "--cases", "../../testdata/bench/cases_zh.jsonl", "--windows", "256")
	if code != 0 || !strings.HasPrefix(out, "evidence recall % over 4 questions") || !strings.Contains(out, "oracle (whole text)") {
		t.Fatalf("bench evidence table: %d %s %s", code, out, errOut)
	}
	for _, tc := range []struct{ flags, want string }{
		{"", "--questions FILE or --pubmedqa FILE is required"},
		{"--questions " + questions, "no document: give --corpus or --cases"},
		{"--questions " + questions + " --corpus ../../testdata/corpus/docs.jsonl", `doc "zh-stemi/lab" is not in the corpus`},
		{"--pubmedqa x.json --questions " + questions, "not both"},
		{"--questions " + questions + " --n 5", "--n needs --pubmedqa"},
		{"--pubmedqa x.json --n -1", "--n -1: want a sample size"},
		{"--questions " + questions + " --cases ../../testdata/bench/cases_zh.jsonl --strategies ebm,best", `unknown strategy "best"`},
		{"--questions " + questions + " --cases ../../testdata/bench/cases_zh.jsonl --windows 0", "--windows"},
		{"--questions " + questions + " --cases ../../testdata/bench/cases_zh.jsonl --strategies fifo,ebm,fifo", "strategy fifo given twice"},
	} {
		args := append([]string{"bench", "evidence"}, strings.Fields(tc.flags)...)
		if code, _, errOut := cli(t, "", args...); code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("bench evidence %s: exit %d, %q; want %q", tc.flags, code, errOut, tc.want)
		}
	}
}

func TestBenchEvidencePubMedQA(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests 10,429 sentences")
	}
	t.Parallel() // with the other dataset tests, after the quick ones
	path := shareddata.Path(t, "pubmedqa", "ori_pqal.json")
	code, out, errOut := cli(t, "", "bench", "evidence", "--pubmedqa", path, "--n", "5", "--windows", "128", "--strategies", "ebm")
	if code != 0 || !strings.HasPrefix(out, "PubMedQA: 1000 abstracts") || !strings.Contains(out, "5 questions asked") {
		t.Fatalf("bench evidence --pubmedqa: %d %s %s", code, out, errOut)
	}
}
