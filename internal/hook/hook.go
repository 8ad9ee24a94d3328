package hook

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// DefaultTimeout bounds one request whose Endpoint has no Timeout.
const DefaultTimeout = 30 * time.Second

// maxReply bounds the body read from a server.
const maxReply = 16 << 20

// Endpoint is one model server: What ("rerank", "stance") and URL name it
// in every error.
type Endpoint struct {
	What   string
	URL    string
	APIKey string // sent as a bearer token; empty sends no Authorization
	// Timeout bounds each request; zero means DefaultTimeout.
	Timeout time.Duration
	Client  *http.Client // nil means http.DefaultClient
}

// Join joins a server root and a path, without doubling the slash.
func Join(root, path string) string {
	return strings.TrimSuffix(root, "/") + path
}

// Post sends data, a JSON body, and returns the reply's body, or an error
// that names the endpoint and says what went wrong: the server could not
// be reached, did not answer within the timeout, or answered with an
// error status. When ctx itself ends, the error wraps ctx's.
func (e Endpoint) Post(ctx context.Context, data []byte) ([]byte, error) {
	timeout := cmp.Or(e.Timeout, DefaultTimeout)
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, e.URL, bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("medkb: %s endpoint %q is not a usable URL: %w", e.What, e.URL, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.APIKey)
	}
	resp, err := cmp.Or(e.Client, http.DefaultClient).Do(req)
	if err == nil {
		defer resp.Body.Close()
		var reply []byte
		reply, err = io.ReadAll(io.LimitReader(resp.Body, maxReply+1))
		switch {
		case err != nil:
		case len(reply) > maxReply:
			return nil, fmt.Errorf("medkb: %s endpoint %s: the reply is over %d bytes", e.What, e.URL, maxReply)
		case resp.StatusCode/100 != 2:
			return nil, fmt.Errorf("medkb: %s endpoint %s answered %s: %s", e.What, e.URL, resp.Status, excerpt(reply))
		default:
			return reply, nil
		}
	}
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("medkb: %s endpoint %s: %w", e.What, e.URL, ctx.Err())
	case errors.Is(err, context.DeadlineExceeded):
		return nil, fmt.Errorf("medkb: %s endpoint %s did not answer within %v: %w", e.What, e.URL, timeout, context.DeadlineExceeded)
	}
	return nil, fmt.Errorf("medkb: %s endpoint %s is unreachable: %w", e.What, e.URL, err)
}

// Malformed is the error of a reply the caller cannot read.
func (e Endpoint) Malformed(reply []byte, format string, args ...any) error {
	return fmt.Errorf("medkb: %s endpoint %s: malformed reply: %s (reply: %s)", e.What, e.URL, fmt.Sprintf(format, args...), excerpt(reply))
}

// excerpt is the start of a reply, for an error message.
func excerpt(b []byte) string {
	const keep = 200
	s := strings.TrimSpace(string(b))
	if len(s) > keep {
		s = strings.ToValidUTF8(s[:keep], "") + "..."
	}
	if s == "" {
		return "(empty)"
	}
	return s
}

// Message is one message of a chat request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// ChatRequest is the body of POST .../chat/completions.
type ChatRequest struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature float64   `json:"temperature"`
}

type chatReply struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
		} `json:"message"`
	} `json:"choices"`
}

// Chat sends messages to an OpenAI-compatible chat endpoint (e's URL is
// the full .../chat/completions address) at temperature 0 and returns
// the first choice's content. A reply that is not a chat completion, or
// has no content, is Malformed.
func (e Endpoint) Chat(ctx context.Context, model string, messages []Message) (string, error) {
	body, _ := json.Marshal(ChatRequest{Model: model, Messages: messages}) // strings and numbers always encode
	reply, err := e.Post(ctx, body)
	if err != nil {
		return "", err
	}
	var chat chatReply
	if err := json.Unmarshal(reply, &chat); err != nil {
		return "", e.Malformed(reply, "not a chat completion: %v", err)
	}
	if len(chat.Choices) == 0 || chat.Choices[0].Message.Content == nil {
		return "", e.Malformed(reply, "no choices[0].message.content")
	}
	return *chat.Choices[0].Message.Content, nil
}
