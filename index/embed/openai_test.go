package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeServer implements POST /v1/embeddings. The vector of a text is
// (len(text), 1, 0, ..., 0) in dim dimensions, so tests can tell rows
// apart; answers list the data in reverse order to test reordering.
type fakeServer struct {
	dim int
	// fail, if set, may answer a request instead (status, body); it gets
	// the request's number, from 0.
	fail func(n int, w http.ResponseWriter) bool

	mu       sync.Mutex
	requests int
	sizes    []int
	auth     []string
}

func (s *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	n := s.requests
	s.requests++
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	s.mu.Unlock()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	if s.fail != nil && s.fail(n, w) {
		return
	}
	var req embeddingRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "test-model" {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.sizes = append(s.sizes, len(req.Input))
	s.mu.Unlock()
	type item struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var data []item
	for i := len(req.Input) - 1; i >= 0; i-- {
		v := make([]float32, s.dim)
		v[0], v[1] = float32(len(req.Input[i])), 1
		data = append(data, item{Index: i, Embedding: v})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
}

func (s *fakeServer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// newTestClient starts srv and returns a client for it; cfg.BaseURL, if
// set, is appended to the server's URL.
func newTestClient(t *testing.T, srv *fakeServer, cfg OpenAIConfig) Embedder {
	t.Helper()
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	cfg.BaseURL = ts.URL + cfg.BaseURL
	cfg.Model = "test-model"
	cfg.Dim = 4
	cfg.Backoff = time.Millisecond
	e, err := NewOpenAI(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestOpenAIOrderAndBatches(t *testing.T) {
	srv := &fakeServer{dim: 4}
	e := newTestClient(t, srv, OpenAIConfig{BatchSize: 3, BaseURL: "/v1/"})
	if e.Name() != "openai:test-model" || e.Dim() != 4 {
		t.Errorf("Name %q Dim %d", e.Name(), e.Dim())
	}
	texts := []string{"a", "bb", "ccc", "dddd", "eeeee", "ffffff", "ggggggg"}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vecs {
		// (len, 1) normalised: the ratio of the first two gives len back.
		if got := v[0] / v[1]; got < float32(len(texts[i]))-1e-3 || got > float32(len(texts[i]))+1e-3 {
			t.Errorf("row %d belongs to a text of length %.2f, want %d", i, got, len(texts[i]))
		}
		if n := dot(v, v); n < 0.9999 || n > 1.0001 {
			t.Errorf("row %d not normalised: %v", i, n)
		}
	}
	if fmt.Sprint(srv.sizes) != "[3 3 1]" {
		t.Errorf("batch sizes %v, want [3 3 1]", srv.sizes)
	}
	if got, err := e.Embed(context.Background(), nil); err != nil || len(got) != 0 || srv.count() != 3 {
		t.Errorf("empty input: %v, %v, %d requests", got, err, srv.count())
	}
}

func TestOpenAIRetriesServerError(t *testing.T) {
	srv := &fakeServer{dim: 4, fail: func(n int, w http.ResponseWriter) bool {
		if n == 0 {
			http.Error(w, "overloaded", http.StatusInternalServerError)
			return true
		}
		return false
	}}
	e := newTestClient(t, srv, OpenAIConfig{})
	if _, err := e.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatalf("a 500 then a 200: %v", err)
	}
	if srv.count() != 2 {
		t.Errorf("%d requests, want 2", srv.count())
	}
}

func TestOpenAIGivesUp(t *testing.T) {
	srv := &fakeServer{dim: 4, fail: func(_ int, w http.ResponseWriter) bool {
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"error":"rate limited"}`)
		return true
	}}
	e := newTestClient(t, srv, OpenAIConfig{Retries: 2})
	_, err := e.Embed(context.Background(), []string{"x"})
	want := "embed: openai:test-model: texts 0 to 0: after 3 attempts: embedding server answered 429 Too Many Requests: rate limited"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	if srv.count() != 3 {
		t.Errorf("%d requests, want 3", srv.count())
	}
}

func TestOpenAIClientErrorNotRetried(t *testing.T) {
	srv := &fakeServer{dim: 4, fail: func(_ int, w http.ResponseWriter) bool {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":{"message":"This model's maximum context length is 8192 tokens","type":"invalid_request_error"}}`)
		return true
	}}
	e := newTestClient(t, srv, OpenAIConfig{})
	_, err := e.Embed(context.Background(), []string{"x"})
	se, ok := errors.AsType[*StatusError](err)
	if !ok || se.StatusCode != 400 || se.Message != "This model's maximum context length is 8192 tokens" {
		t.Fatalf("err = %v, want a StatusError 400 with the server's message", err)
	}
	if !strings.Contains(err.Error(), "400 Bad Request: This model's maximum") {
		t.Errorf("message %q lacks status and server message", err)
	}
	if srv.count() != 1 {
		t.Errorf("%d requests, want 1 (400 is final)", srv.count())
	}
}

func TestOpenAIWrongDimension(t *testing.T) {
	srv := &fakeServer{dim: 3}
	e := newTestClient(t, srv, OpenAIConfig{})
	_, err := e.Embed(context.Background(), []string{"x"})
	if !errors.Is(err, ErrDimension) || !strings.Contains(err.Error(), "returned 3 floats, configured dimension is 4") {
		t.Errorf("err = %v, want ErrDimension naming both sizes", err)
	}
	if srv.count() != 1 {
		t.Errorf("%d requests, want 1", srv.count())
	}
}

func TestOpenAITimeoutAndCancel(t *testing.T) {
	release := make(chan struct{})
	srv := &fakeServer{dim: 4, fail: func(_ int, w http.ResponseWriter) bool {
		<-release
		return false
	}}
	defer close(release) // lets the server's handlers finish before it closes
	e := newTestClient(t, srv, OpenAIConfig{Timeout: 20 * time.Millisecond, Retries: 1})
	_, err := e.Embed(context.Background(), []string{"x"})
	if !errors.Is(err, context.DeadlineExceeded) || srv.count() != 2 {
		t.Errorf("slow server: err = %v after %d requests, want a deadline after 2", err, srv.count())
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Embed(ctx, []string{"x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err = %v", err)
	}
}

// TestOpenAIAPIKey checks that the key sent is the configured one and
// nothing else: the package reads no environment.
func TestOpenAIAPIKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-openai")
	t.Setenv("MEDKB_EMBED_API_KEY", "sk-medkb")
	for _, c := range []struct{ cfg, want string }{
		{"", ""},
		{"sk-config", "Bearer sk-config"},
	} {
		srv := &fakeServer{dim: 4}
		e := newTestClient(t, srv, OpenAIConfig{APIKey: c.cfg})
		if _, err := e.Embed(context.Background(), []string{"x"}); err != nil {
			t.Fatal(err)
		}
		if srv.auth[0] != c.want {
			t.Errorf("config %q: sent %q, want %q", c.cfg, srv.auth[0], c.want)
		}
	}
}

func TestOpenAIConfigErrors(t *testing.T) {
	for _, cfg := range []OpenAIConfig{
		{BaseURL: "http://x", Dim: 4},
		{BaseURL: "http://x", Model: "m"},
		{BaseURL: "localhost:8080", Model: "m", Dim: 4},
		{Model: "m", Dim: 4},
		{BaseURL: "http://x", Model: "m", Dim: 4, BatchSize: -1},
	} {
		if _, err := NewOpenAI(cfg); !errors.Is(err, ErrConfig) {
			t.Errorf("NewOpenAI(%+v): err = %v, want ErrConfig", cfg, err)
		}
	}
}

func TestServerMessage(t *testing.T) {
	for body, want := range map[string]string{
		`{"error":{"message":"bad input"}}`: "bad input",
		`{"error":"model not found"}`:       "model not found",
		"upstream timeout\n":                "upstream timeout",
		strings.Repeat("x", 300):            strings.Repeat("x", 200) + "...",
	} {
		if got := serverMessage([]byte(body)); got != want {
			t.Errorf("serverMessage(%.40q) = %q, want %q", body, got, want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	for h, want := range map[string]time.Duration{
		"": 0, "2": 2 * time.Second, " 7 ": 7 * time.Second, "-1": 0,
		"86400": maxRetryAfter, "Wed, 21 Oct 2015 07:28:00 GMT": 0,
	} {
		if got := retryAfter(h); got != want {
			t.Errorf("retryAfter(%q) = %v, want %v", h, got, want)
		}
	}
}
