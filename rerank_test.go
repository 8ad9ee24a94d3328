package medkb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/medkb/medkb/planner"
)

// fakeServer serves handler at path and fails the test on any other
// path or method.
func fakeServer(t testing.TB, path string, handler func(w http.ResponseWriter, body []byte)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != path || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s (%s): want POST %s as JSON", r.Method, r.URL.Path, r.Header.Get("Content-Type"), path)
		}
		var body json.RawMessage
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			t.Errorf("request body: %v", err)
		}
		handler(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// reply writes s as the body.
func reply(s string) func(http.ResponseWriter, []byte) {
	return func(w http.ResponseWriter, _ []byte) { w.Write([]byte(s)) }
}

// downURL is the URL of a server that has stopped.
func downURL(t *testing.T) string {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	return srv.URL
}

// hangs answers only when the request is given up (the server notices
// that once it has read the body).
func hangs(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

var rerankDocs = []string{"aspirin", "troponin rises", "chest pain"}

// sentRerank is a rerank request as the server reads it.
type sentRerank struct {
	Query     string   `json:"query"`
	Documents []string `json:"documents"`
	Texts     []string `json:"texts"`
	TopN      int      `json:"top_n"`
	Model     string   `json:"model"`
}

// TestHTTPRerankerShapes: the request carries the query and documents
// under both names with top_n and model; both reply shapes, in any
// order, give the scores in the documents' order.
func TestHTTPRerankerShapes(t *testing.T) {
	for name, body := range map[string]string{
		"tei":    `[{"index":2,"score":0.9},{"index":0,"score":-1.5},{"index":1,"score":0.25}]`,
		"cohere": `{"id":"x","results":[{"index":2,"relevance_score":0.9},{"index":1,"relevance_score":0.25},{"index":0,"relevance_score":-1.5}],"meta":{}}`,
		"jina":   `{"model":"m","usage":{"total_tokens":9},"results":[{"index":0,"document":{"text":"aspirin"},"relevance_score":-1.5},{"index":1,"relevance_score":0.25},{"index":2,"relevance_score":0.9}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			srv := fakeServer(t, "/v1/rerank", func(w http.ResponseWriter, b []byte) {
				var req sentRerank
				if err := json.Unmarshal(b, &req); err != nil {
					t.Error(err)
				}
				want := sentRerank{Query: "chest pain", Documents: rerankDocs, Texts: rerankDocs, TopN: 3, Model: "bge-reranker"}
				if req.Query != want.Query || !slices.Equal(req.Documents, want.Documents) || !slices.Equal(req.Texts, want.Texts) ||
					req.TopN != want.TopN || req.Model != want.Model {
					t.Errorf("request %+v, want %+v", req, want)
				}
				w.Write([]byte(body))
			})
			r := &HTTPReranker{URL: srv.URL + "/v1/", Model: "bge-reranker"}
			got, err := r.Rerank(context.Background(), "chest pain", rerankDocs)
			if err != nil || !slices.Equal(got, []float64{-1.5, 0.25, 0.9}) {
				t.Fatalf("got %v, %v", got, err)
			}
		})
	}
}

// TestHTTPRerankerErrors: every failure names the endpoint and says what
// went wrong.
func TestHTTPRerankerErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		url  func(t *testing.T) string
		want string
	}{
		{"down", downURL, "is unreachable"},
		{"timeout", func(t *testing.T) string { return hangs(t).URL }, "did not answer within 50ms"},
		{"status", func(t *testing.T) string {
			return fakeServer(t, "/rerank", func(w http.ResponseWriter, _ []byte) {
				http.Error(w, "model is loading", http.StatusServiceUnavailable)
			}).URL
		}, "answered 503 Service Unavailable: model is loading"},
		{"not json", served(`<html>oops</html>`), "malformed reply: neither a list"},
		{"bad json", served(`[{"index":0,"score":1},`), "malformed reply: unexpected end of JSON input"},
		{"no results", served(`{"error":"x"}`), `malformed reply: an object without "results"`},
		{"too few", served(`[{"index":0,"score":1},{"index":1,"score":1}]`), "malformed reply: 2 scores for 3 documents"},
		{"too many", served(`{"results":[{"index":0,"relevance_score":1},{"index":1,"relevance_score":1},{"index":2,"relevance_score":1},{"index":2,"relevance_score":1}]}`), "malformed reply: 4 scores for 3 documents"},
		{"out of range", served(`[{"index":0,"score":1},{"index":1,"score":1},{"index":3,"score":1}]`), "index 3 is out of range for 3 documents"},
		{"negative", served(`[{"index":-1,"score":1},{"index":1,"score":1},{"index":2,"score":1}]`), "index -1 is out of range"},
		{"twice", served(`[{"index":0,"score":1},{"index":1,"score":1},{"index":1,"score":1}]`), "index 1 is scored twice"},
		{"no index", served(`[{"score":1},{"index":1,"score":1},{"index":2,"score":1}]`), "result 0 has no index"},
		{"no score", served(`[{"index":0},{"index":1,"score":1},{"index":2,"score":1}]`), `index 0 has neither "score" nor "relevance_score"`},
		{"string score", served(`[{"index":0,"score":"high"},{"index":1,"score":1},{"index":2,"score":1}]`), "malformed reply: json: cannot unmarshal string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url(t)
			r := &HTTPReranker{URL: url, Timeout: 50 * time.Millisecond}
			start := time.Now()
			_, err := r.Rerank(context.Background(), "chest pain", rerankDocs)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "rerank endpoint "+url+"/rerank") {
				t.Fatalf("got %v, want %q naming the endpoint", err, tc.want)
			}
			if tc.name == "timeout" && (!errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second) {
				t.Fatalf("timeout: %v after %v", err, time.Since(start))
			}
		})
	}
}

// served is a fake rerank server that answers body.
func served(body string) func(t *testing.T) string {
	return func(t *testing.T) string { return fakeServer(t, "/rerank", reply(body)).URL }
}

// TestHTTPRerankerCancelled: the caller's context ending is reported as
// such, not as the hook's timeout.
func TestHTTPRerankerCancelled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := (&HTTPReranker{URL: hangs(t).URL}).Rerank(ctx, "q", rerankDocs)
	if !errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "did not answer") {
		t.Fatalf("got %v", err)
	}
	if got, err := (&HTTPReranker{URL: downURL(t)}).Rerank(ctx, "q", nil); err != nil || len(got) != 0 {
		t.Fatalf("no documents: got %v, %v; want no request", got, err)
	}
}

// TestQueryRerank: a store whose Options.Reranker is an HTTPReranker
// sends the top chunks' text, and the query reorders its items by the
// server's scores, keeping them in provenance.
func TestQueryRerank(t *testing.T) {
	var sent []string
	srv := fakeServer(t, "/rerank", func(w http.ResponseWriter, b []byte) {
		var req sentRerank
		json.Unmarshal(b, &req)
		sent = req.Texts
		scores := make([]rerankScore, len(req.Texts))
		for i := range req.Texts {
			idx, s := i, float64(i) // the last sent ranks first
			scores[i] = rerankScore{Index: &idx, Score: &s}
		}
		json.NewEncoder(w).Encode(scores)
	})
	db := openSampleWith(t, &Options{Reranker: &HTTPReranker{URL: srv.URL}})
	ctx := context.Background()
	plain, err := db.Query(ctx, `RETRIEVE "chest pain troponin" LIMIT 4`)
	if err != nil {
		t.Fatal(err)
	}
	r, err := db.Query(ctx, `RETRIEVE "chest pain troponin" RERANK top 4 LIMIT 4`)
	if err != nil {
		t.Fatal(err)
	}
	if len(sent) != 4 || len(r.Items) != 4 {
		t.Fatalf("sent %d texts, got %d items", len(sent), len(r.Items))
	}
	for i, it := range r.Items {
		want := plain.Items[len(plain.Items)-1-i]
		if it.ID != want.ID || it.Provenance.Rerank == nil || *it.Provenance.Rerank != float64(3-i) || sent[3-i] != it.Text {
			t.Errorf("item %d: %s rerank %v, want %s with score %d", i, it.ID, it.Provenance.Rerank, want.ID, 3-i)
		}
	}
	if plain.Items[0].Provenance.Rerank != nil {
		t.Error("a query without RERANK has rerank scores")
	}
	plan, err := db.Explain(ctx, `EXPLAIN ANALYZE RETRIEVE "chest pain troponin" RERANK top 4 LIMIT 4`)
	if err != nil || !strings.Contains(plan, "Rerank top=4") || !strings.Contains(plan, "reranked 4 of") {
		t.Fatalf("%v\n%s", err, plan)
	}
	srv.Close()
	if _, err := db.Query(ctx, `RETRIEVE "chest pain troponin" RERANK`); err == nil || !strings.Contains(err.Error(), "rerank endpoint "+srv.URL) {
		t.Fatalf("server gone: got %v", err)
	}
}

// BenchmarkHTTPRerankerOverhead is the hook's cost beside the server's
// own time: a fake server that answers 50 documents from a reply made in
// advance. It reports the median call, which the issue bounds at 1 ms.
func BenchmarkHTTPRerankerOverhead(b *testing.B) {
	docs := make([]string, 50)
	scores := make([]rerankScore, 50)
	for i := range docs {
		docs[i] = strings.Repeat("troponin rises after myocardial injury; ", 25) // about a 256-token chunk
		idx, s := i, float64(i)
		scores[i] = rerankScore{Index: &idx, Score: &s}
	}
	canned, _ := json.Marshal(scores)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Write(canned)
	}))
	defer srv.Close()
	r := &HTTPReranker{URL: srv.URL}
	ctx := context.Background()
	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		if _, err := r.Rerank(ctx, "chest pain troponin", docs); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	b.ReportMetric(float64(took[len(took)/2].Microseconds()), "median-µs")
}

// openSampleWith is openSample with options.
func openSampleWith(t testing.TB, o *Options) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "kb"), o)
	if err != nil {
		t.Fatal(err)
	}
	checked(t, db)
	if err := LoadSample(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestServeNoRerankerIsBadRequest: over the API, RERANK on a server
// without a reranker is the client's mistake, not the server's.
func TestServeNoRerankerIsBadRequest(t *testing.T) {
	status, obj := errorOf(fmt.Errorf("query: %w", planner.ErrNoReranker))
	if status != http.StatusBadRequest || obj.Code != "bad_request" {
		t.Fatalf("got %d %+v", status, obj)
	}
}
