package hook

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestPostErrors: every way a server can fail is an error naming the
// endpoint's purpose and URL and what went wrong; cancellation by the
// caller wraps the context's error.
func TestPostErrors(t *testing.T) {
	serve := func(h http.HandlerFunc) string {
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return srv.URL
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	slow := serve(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(500 * time.Millisecond):
		}
	})
	for _, tc := range []struct {
		name, url, want string
	}{
		{"down", closed.URL, "is unreachable"},
		{"slow", slow, "did not answer within 50ms"},
		{"status", serve(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, strings.Repeat("x", 300), 502) }), "answered 502 Bad Gateway: " + strings.Repeat("x", 200) + "..."},
		{"huge", serve(func(w http.ResponseWriter, _ *http.Request) { w.Write(make([]byte, maxReply+1)) }), "the reply is over"},
		{"bad url", "://nowhere", "is not a usable URL"},
	} {
		ep := Endpoint{What: "test", URL: tc.url}
		if tc.name == "slow" {
			ep.Timeout = 50 * time.Millisecond
		}
		_, err := ep.Post(context.Background(), []byte(`{}`))
		if err == nil || !strings.Contains(err.Error(), "test endpoint") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (Endpoint{What: "test", URL: slow}).Post(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v, want context.Canceled", err)
	}
}

// TestChat: the request is the model's messages at temperature 0 with
// the bearer key; the first choice's content comes back.
func TestChat(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get("Authorization") != "Bearer k" || string(body) != `{"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":0}` {
			http.Error(w, "unexpected "+string(body), 400)
			return
		}
		w.Write([]byte(`{"choices":[{"message":{"content":"hello"}}]}`))
	}))
	defer srv.Close()
	ep := Endpoint{What: "chat", URL: Join(srv.URL+"/", "/chat/completions"), APIKey: "k"}
	if got, err := ep.Chat(context.Background(), "m", []Message{{Role: "user", Content: "hi"}}); err != nil || got != "hello" {
		t.Fatalf("got %q, %v", got, err)
	}
}
