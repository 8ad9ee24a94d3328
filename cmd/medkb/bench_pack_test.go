package main

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/medkb/medkb/index/embed"
)

// fakeEmbedServer is a fake OpenAI-compatible embeddings server; calls
// counts the requests it answered.
type fakeEmbedServer struct {
	*httptest.Server
	calls atomic.Int64
}

// hashServer answers POST /v1/embeddings, the OpenAI embeddings API, for
// the model "relay" with hash-v1 vectors, so that a served embedder's
// results can be compared with the built-in one's.
func hashServer(t *testing.T) *fakeEmbedServer {
	h := embed.NewHash(0)
	ts := &fakeEmbedServer{}
	ts.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ts.calls.Add(1)
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "relay" {
			http.Error(w, "want model relay", http.StatusBadRequest)
			return
		}
		vecs, err := h.Embed(r.Context(), req.Input)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		type row struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		data := make([]row, len(vecs))
		for i, v := range vecs {
			data[i] = row{i, v}
		}
		json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(ts.Close)
	return ts
}

// benchPackJSON is the part of bench pack's JSON report that an embedder
// decides.
type benchPackJSON struct {
	RRCE  map[string]map[string]float64 `json:"rrce"`
	Ratio float64                       `json:"utility_ratio_vs_exact"`
	Kmin  map[string]float64            `json:"kmin_ablation"`
}

func TestBenchPackServedEmbedder(t *testing.T) {
	cases := "../../internal/bench/packbench/testdata/cases.jsonl"
	args := []string{"bench", "pack", "--cases", cases, "--windows", "256,512", "--json"}
	code, builtIn, errOut := cli(t, "", args...)
	if code != 0 {
		t.Fatal(errOut)
	}
	ts := hashServer(t)
	code, served, errOut := cli(t, "", append(args, "--embedder", "openai:relay", "--embed-dim", "384", "--embed-url", ts.URL)...)
	if code != 0 {
		t.Fatal(errOut)
	}
	// The client renormalises what it receives, so the utilities may
	// differ in the last bits; which segments survive may not.
	var a, b benchPackJSON
	if err := errors.Join(json.Unmarshal([]byte(builtIn), &a), json.Unmarshal([]byte(served), &b)); err != nil {
		t.Fatal(err)
	}
	if len(a.RRCE["ebm"]) != 2 {
		t.Fatalf("no ebm RRCE at two windows in %s", builtIn)
	}
	if !reflect.DeepEqual(a.RRCE, b.RRCE) || !reflect.DeepEqual(a.Kmin, b.Kmin) || math.Abs(a.Ratio-b.Ratio) > 1e-9 {
		t.Errorf("the same vectors served over HTTP gave another report:\n%s\nagainst\n%s", served, builtIn)
	}
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--embedder", "word2vec"}, `unknown embedder "word2vec"`},
		{[]string{"--embedder", "openai:relay", "--embed-url", ts.URL}, "dimension 0"},
		{[]string{"--embedder", "openai:relay", "--embed-dim", "384", "--embed-url", "localhost"}, "not an http(s) URL"},
		{[]string{"--embed-dim", "-1"}, "dimension -1"},
	} {
		code, _, errOut := cli(t, "", append(args, tc.flags...)...)
		if code != 1 || !strings.Contains(errOut, "--embedder: ") || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want an error naming %q", tc.flags, code, errOut, tc.want)
		}
	}
}

// TestBenchPackAnswers: --llm asks a chat server (here one that always
// answers "A") and --export-prompts writes the very prompts it asked,
// whose answers give the accuracy reported.
func TestBenchPackAnswers(t *testing.T) {
	var calls atomic.Int64
	chat := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer k1" {
			http.Error(w, "wrong path or key", http.StatusNotFound)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": "A"}}}})
	}))
	t.Cleanup(chat.Close)
	t.Setenv("MEDKB_LLM_API_KEY", "k1")
	dir := t.TempDir()
	args := []string{"bench", "pack", "--medqa", "../../internal/bench/packbench/testdata/medqa_zh.jsonl", "--n", "0", "--windows", "256"}
	code, out, errOut := cli(t, "", append(args, "--json", "--llm", "openai:m1", "--llm-url", chat.URL+"/v1", "--export-prompts", dir)...)
	if code != 0 {
		t.Fatal(errOut)
	}
	var rep struct {
		Answers struct {
			Full     float64                       `json:"full_record_accuracy"`
			Accuracy map[string]map[string]float64 `json:"accuracy"`
			Requests int                           `json:"requests"`
		} `json:"answers"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "prompts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	full, fullA, lines := 0, 0, strings.Split(strings.TrimSpace(string(raw)), "\n")
	for _, line := range lines {
		var p struct{ Strategy, Answer string }
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			t.Fatal(err)
		}
		if p.Strategy == "full" {
			full++
			if p.Answer == "A" {
				fullA++
			}
		}
	}
	if full != 19 || len(lines) != 19*6 || rep.Answers.Full != float64(fullA)/float64(full) || int(calls.Load()) != rep.Answers.Requests {
		t.Errorf("%d full prompts of %d, %d answered A; report %+v after %d calls", full, len(lines), fullA, rep.Answers, calls.Load())
	}
	if len(rep.Answers.Accuracy) != 5 || !strings.Contains(errOut, "wrote 114 prompts") {
		t.Errorf("accuracy %v; stderr %q", rep.Answers.Accuracy, errOut)
	}
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--llm", "gpt-4o"}, "want openai:MODEL"},
		{[]string{"--llm", "openai:m1", "--llm-url", "http://127.0.0.1:1/v1"}, "answer endpoint http://127.0.0.1:1/v1/chat/completions is unreachable"},
		{[]string{"--llm", "openai:m1", "--llm-workers", "0"}, "--llm-workers 0"},
	} {
		if code, _, errOut := cli(t, "", append(args, tc.flags...)...); code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want %q", tc.flags, code, errOut, tc.want)
		}
	}
	if code, _, errOut := cli(t, "", "bench", "pack", "--cases", "../../internal/bench/packbench/testdata/cases.jsonl", "--llm", "openai:m1"); code != 1 || !strings.Contains(errOut, "no case has a question") {
		t.Errorf("cases without questions: exit %d, %q", code, errOut)
	}
}
