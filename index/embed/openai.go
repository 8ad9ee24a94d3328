package embed

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/medkb/medkb/index/vector"
)

var (
	// ErrConfig is returned by NewOpenAI when the configuration lacks a
	// required field or has an invalid one.
	ErrConfig = errors.New("medkb: invalid embedder configuration")
	// ErrDimension is returned when a server's vectors do not have the
	// configured dimension.
	ErrDimension = errors.New("medkb: embedding dimension mismatch")
)

// OpenAIConfig configures NewOpenAI. Model, Dim and BaseURL are required;
// every other zero value selects the default given with the field.
type OpenAIConfig struct {
	// BaseURL is the server root, e.g. "https://api.openai.com" or
	// "http://localhost:11434" (Ollama); requests go to
	// BaseURL/v1/embeddings. A trailing "/v1" is accepted and not doubled.
	BaseURL string
	Model   string
	// Dim is the dimension the model returns; responses are checked
	// against it.
	Dim int
	// APIKey is sent as a bearer token; empty sends no Authorization
	// header (local servers need none). The package reads no
	// environment: the medkb command passes $MEDKB_EMBED_API_KEY, else
	// $OPENAI_API_KEY.
	APIKey string
	// BatchSize is the number of texts per request; 0 means 64.
	BatchSize int
	// Retries is how many times a request is repeated after a 429, a 5xx
	// or a network error (a timeout included); 0 means 3, negative none.
	Retries int
	// Timeout bounds each request; 0 means 30 seconds.
	Timeout time.Duration
	// Backoff is the wait before the first retry, doubled before each
	// further one; 0 means 500 milliseconds. A Retry-After header, up to
	// a minute, is honoured when longer.
	Backoff time.Duration
	// Client sends the requests; nil means http.DefaultClient.
	Client *http.Client
}

// openAIPrefix starts the Name of every NewOpenAI embedder.
const openAIPrefix = "openai:"

// The defaults of OpenAIConfig.
const (
	DefaultBatchSize = 64
	DefaultRetries   = 3
	DefaultTimeout   = 30 * time.Second
	DefaultBackoff   = 500 * time.Millisecond
	maxRetryAfter    = time.Minute
)

// StatusError is returned when the server answers with a status other
// than 200. Message is the server's error message, or the start of its
// body when it sent no recognisable one.
type StatusError struct {
	StatusCode int
	Message    string
	retryAfter time.Duration
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("embedding server answered %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// temporary reports whether the same request may succeed later.
func (e *StatusError) temporary() bool {
	return e.StatusCode == http.StatusTooManyRequests || e.StatusCode >= 500
}

// NewOpenAI returns an Embedder for an OpenAI-compatible embeddings
// endpoint (OpenAI, Ollama, vLLM, TEI, ...). It checks the configuration
// but does not contact the server.
func NewOpenAI(cfg OpenAIConfig) (Embedder, error) {
	if cfg.Model == "" {
		return nil, fmt.Errorf("%w: no model", ErrConfig)
	}
	if cfg.Dim <= 0 {
		return nil, fmt.Errorf("%w: dimension %d (set the model's output dimension)", ErrConfig, cfg.Dim)
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%w: base URL %q is not an http(s) URL", ErrConfig, cfg.BaseURL)
	}
	c := &openAIEmbedder{
		endpoint: strings.TrimSuffix(strings.TrimRight(cfg.BaseURL, "/"), "/v1") + "/v1/embeddings",
		model:    cfg.Model,
		dim:      cfg.Dim,
		key:      cfg.APIKey,
		batch:    cmp.Or(cfg.BatchSize, DefaultBatchSize),
		retries:  cmp.Or(cfg.Retries, DefaultRetries),
		timeout:  cmp.Or(cfg.Timeout, DefaultTimeout),
		backoff:  cmp.Or(cfg.Backoff, DefaultBackoff),
		client:   cmp.Or(cfg.Client, http.DefaultClient),
	}
	if c.batch < 0 || c.timeout < 0 || c.backoff < 0 {
		return nil, fmt.Errorf("%w: negative batch size, timeout or backoff", ErrConfig)
	}
	c.retries = max(c.retries, 0)
	return c, nil
}

type openAIEmbedder struct {
	endpoint string
	model    string
	dim      int
	key      string
	batch    int
	retries  int
	timeout  time.Duration
	backoff  time.Duration
	client   *http.Client
}

func (c *openAIEmbedder) Name() string { return openAIPrefix + c.model }

func (c *openAIEmbedder) Dim() int { return c.dim }

// Embed sends texts in batches, one request at a time, and returns the
// vectors in input order, normalised.
func (c *openAIEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := rows(len(texts), c.dim)
	for lo := 0; lo < len(texts); lo += c.batch {
		hi := min(lo+c.batch, len(texts))
		if err := c.embedBatch(ctx, texts[lo:hi], out[lo:hi]); err != nil {
			return nil, fmt.Errorf("embed: %s: texts %d to %d: %w", c.Name(), lo, hi-1, err)
		}
	}
	return out, nil
}

type embeddingRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embeddingResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

// embedBatch embeds one batch into dst, retrying temporary failures.
func (c *openAIEmbedder) embedBatch(ctx context.Context, texts []string, dst [][]float32) error {
	body, err := json.Marshal(embeddingRequest{Model: c.model, Input: texts})
	if err != nil {
		return err
	}
	wait := c.backoff
	for attempt := 0; ; attempt++ {
		resp, err := c.post(ctx, body)
		if err == nil {
			return c.place(resp, dst)
		}
		if attempt == c.retries || !c.temporary(ctx, err) {
			if attempt > 0 {
				err = fmt.Errorf("after %d attempts: %w", attempt+1, err)
			}
			return err
		}
		pause := wait
		if se, ok := errors.AsType[*StatusError](err); ok && se.retryAfter > pause {
			pause = se.retryAfter
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (while waiting to retry after: %v)", ctx.Err(), err)
		case <-time.After(pause):
		}
		wait *= 2
	}
}

// temporary reports whether err, from one attempt, is worth a retry: a 429
// or 5xx answer, or a network error or timeout while ctx itself is live.
func (c *openAIEmbedder) temporary(ctx context.Context, err error) bool {
	if se, ok := errors.AsType[*StatusError](err); ok {
		return se.temporary()
	}
	_, undecodable := errors.AsType[*responseError](err)
	return ctx.Err() == nil && !undecodable
}

// responseError marks an answer that arrived whole but cannot be decoded;
// repeating the request would not help.
type responseError struct{ msg string }

func (e *responseError) Error() string { return e.msg }

// post sends one request under the per-request timeout and decodes a 200
// answer.
func (c *openAIEmbedder) post(ctx context.Context, body []byte) (*embeddingResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("reading the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &StatusError{
			StatusCode: resp.StatusCode,
			Message:    serverMessage(data),
			retryAfter: retryAfter(resp.Header.Get("Retry-After")),
		}
	}
	var out embeddingResponse
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, &responseError{fmt.Sprintf("cannot decode the answer: %v", err)}
	}
	return &out, nil
}

// place checks an answer against its batch and writes the normalised
// vectors into dst in input order.
func (c *openAIEmbedder) place(resp *embeddingResponse, dst [][]float32) error {
	if len(resp.Data) != len(dst) {
		return fmt.Errorf("server returned %d embeddings for %d texts", len(resp.Data), len(dst))
	}
	filled := make([]bool, len(dst))
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= len(dst) || filled[d.Index] {
			return fmt.Errorf("server returned index %d twice or out of range for %d texts", d.Index, len(dst))
		}
		if len(d.Embedding) != c.dim {
			return fmt.Errorf("%w: model %s returned %d floats, configured dimension is %d", ErrDimension, c.model, len(d.Embedding), c.dim)
		}
		copy(dst[d.Index], d.Embedding)
		if !vector.Normalize(dst[d.Index]) {
			return fmt.Errorf("server returned a zero or non-finite vector for text %d of the batch", d.Index)
		}
		filled[d.Index] = true
	}
	return nil
}

// serverMessage extracts the error message of an error answer: OpenAI's
// {"error":{"message":...}}, the {"error":"..."} of several other
// servers, or else the body's first 200 bytes.
func serverMessage(body []byte) string {
	var structured struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &structured) == nil && len(structured.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(structured.Error, &obj) == nil && obj.Message != "" {
			return obj.Message
		}
		var s string
		if json.Unmarshal(structured.Error, &s) == nil && s != "" {
			return s
		}
	}
	msg := strings.TrimSpace(string(body))
	if len(msg) > 200 {
		msg = msg[:200] + "..."
	}
	return msg
}

// retryAfter reads a Retry-After header given in seconds (the HTTP-date
// form is ignored), capped at maxRetryAfter.
func retryAfter(h string) time.Duration {
	secs, err := strconv.Atoi(strings.TrimSpace(h))
	if err != nil || secs <= 0 {
		return 0
	}
	return min(time.Duration(secs)*time.Second, maxRetryAfter)
}
