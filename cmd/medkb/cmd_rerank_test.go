package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestQueryRerankFromEnvironment: the command's reranker is the one at
// $MEDKB_RERANK_URL, with its model; without it RERANK fails and says
// what to set.
func TestQueryRerankFromEnvironment(t *testing.T) {
	db := sampleStore(t)
	var model string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Texts []string `json:"texts"`
			Model string   `json:"model"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		model = req.Model
		type score struct {
			Index int     `json:"index"`
			Score float64 `json:"relevance_score"`
		}
		out := struct {
			Results []score `json:"results"`
		}{}
		for i := range req.Texts {
			out.Results = append(out.Results, score{i, float64(i)})
		}
		json.NewEncoder(w).Encode(out)
	}))
	defer srv.Close()
	t.Setenv("MEDKB_RERANK_URL", srv.URL)
	t.Setenv("MEDKB_RERANK_MODEL", "bge-reranker-v2-m3")
	code, out, errOut := cli(t, "", append([]string{"query", "--json"}, append(db, `RETRIEVE "chest pain" RERANK top 3 LIMIT 3`)...)...)
	if code != 0 || !strings.Contains(out, `"rerank": 2`) || model != "bge-reranker-v2-m3" {
		t.Fatalf("query: %d model %q\n%s%s", code, model, out, errOut)
	}
	code, out, errOut = cli(t, "", append([]string{"query"}, append(db, `RETRIEVE "chest pain" RERANK top 3 LIMIT 3`)...)...)
	if code != 0 || !strings.Contains(out, "rerank 2.000") {
		t.Fatalf("query: %d\n%s%s", code, out, errOut)
	}
	t.Setenv("MEDKB_RERANK_URL", "")
	code, _, errOut = cli(t, "", append([]string{"query"}, append(db, `RETRIEVE "chest pain" RERANK`)...)...)
	if code != 1 || !strings.Contains(errOut, "$MEDKB_RERANK_URL") {
		t.Errorf("query without a reranker: %d %q", code, errOut)
	}
}
