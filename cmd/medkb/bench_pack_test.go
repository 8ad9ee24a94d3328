package main

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
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
