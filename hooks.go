package medkb

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// DefaultHookTimeout bounds one request to a model hook (HTTPReranker,
// StanceJudge) whose Timeout is zero.
const DefaultHookTimeout = 30 * time.Second

// maxHookReply bounds the body read from a hook's server.
const maxHookReply = 16 << 20

// hookEndpoint is one model server a hook posts JSON to: its purpose
// ("rerank", "stance") and URL name it in every error.
type hookEndpoint struct {
	what    string
	url     string
	apiKey  string
	timeout time.Duration
	client  *http.Client
}

// endpoint joins a server root and a path, without doubling the slash.
func endpoint(root, path string) string {
	return strings.TrimSuffix(root, "/") + path
}

// post sends data, a JSON body, and returns the reply's body, or an error that
// names the endpoint and says what went wrong: the server could not be
// reached, did not answer within the timeout, or answered with an error
// status. When ctx itself ends, the error wraps ctx's.
func (h hookEndpoint) post(ctx context.Context, data []byte) ([]byte, error) {
	timeout := cmp.Or(h.timeout, DefaultHookTimeout)
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, h.url, bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("medkb: %s endpoint %q is not a usable URL: %w", h.what, h.url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if h.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+h.apiKey)
	}
	resp, err := cmp.Or(h.client, http.DefaultClient).Do(req)
	if err == nil {
		defer resp.Body.Close()
		var reply []byte
		reply, err = io.ReadAll(io.LimitReader(resp.Body, maxHookReply+1))
		switch {
		case err != nil:
		case len(reply) > maxHookReply:
			return nil, fmt.Errorf("medkb: %s endpoint %s: the reply is over %d bytes", h.what, h.url, maxHookReply)
		case resp.StatusCode/100 != 2:
			return nil, fmt.Errorf("medkb: %s endpoint %s answered %s: %s", h.what, h.url, resp.Status, excerpt(reply))
		default:
			return reply, nil
		}
	}
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("medkb: %s endpoint %s: %w", h.what, h.url, ctx.Err())
	case errors.Is(err, context.DeadlineExceeded):
		return nil, fmt.Errorf("medkb: %s endpoint %s did not answer within %v: %w", h.what, h.url, timeout, context.DeadlineExceeded)
	}
	return nil, fmt.Errorf("medkb: %s endpoint %s is unreachable: %w", h.what, h.url, err)
}

// malformed is the error of a reply the hook cannot read.
func (h hookEndpoint) malformed(reply []byte, format string, args ...any) error {
	return fmt.Errorf("medkb: %s endpoint %s: malformed reply: %s (reply: %s)", h.what, h.url, fmt.Sprintf(format, args...), excerpt(reply))
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
