package medkb

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/medkb/medkb/internal/hook"
)

// Reranker scores documents against a query for RERANK: one score per
// document, in the order given, higher meaning more relevant. Set one in
// Options.Reranker; HTTPReranker calls a rerank server. A statement
// with RERANK fails on a DB without one (EXPLAIN without ANALYZE still
// shows its plan).
type Reranker interface {
	Rerank(ctx context.Context, query string, docs []string) ([]float64, error)
}

// HTTPReranker is a Reranker served over HTTP in the shape TEI, Jina and
// Cohere share: POST URL/rerank with
//
//	{"query": "...", "documents": [...], "texts": [...], "top_n": N, "model": "..."}
//
// (the documents under both names, TEI reading "texts" and the others
// "documents"; model only when set), answered either with TEI's
// [{"index": i, "score": s}, ...] or with Jina's and Cohere's
// {"results": [{"index": i, "relevance_score": s}, ...]}, in any order.
// Every document must be scored once. The medkb command builds one from
// $MEDKB_RERANK_URL, $MEDKB_RERANK_MODEL and $MEDKB_RERANK_API_KEY.
type HTTPReranker struct {
	// URL is the server root: "http://localhost:8080" (TEI),
	// "https://api.jina.ai/v1", "https://api.cohere.com/v2".
	URL string
	// Model names the model, for servers that serve several; empty
	// sends none.
	Model string
	// APIKey is sent as a bearer token; empty sends no Authorization.
	APIKey string
	// Timeout bounds each request; zero means DefaultHookTimeout.
	Timeout time.Duration
	// Client sends the requests; nil means http.DefaultClient.
	Client *http.Client
}

// rerankBody is the request: the documents' list is encoded once and
// written under both names, a copy json.Marshal would re-validate.
func rerankBody(query string, docs []string, model string) []byte {
	enc := func(v any) []byte {
		b, _ := json.Marshal(v) // strings and numbers always encode
		return b
	}
	list := enc(docs)
	var b bytes.Buffer
	b.Grow(2*len(list) + len(query) + len(model) + 64)
	b.WriteString(`{"query":`)
	b.Write(enc(query))
	b.WriteString(`,"documents":`)
	b.Write(list)
	b.WriteString(`,"texts":`)
	b.Write(list)
	fmt.Fprintf(&b, `,"top_n":%d`, len(docs))
	if model != "" {
		b.WriteString(`,"model":`)
		b.Write(enc(model))
	}
	b.WriteByte('}')
	return b.Bytes()
}

// rerankScore is one scored document of either reply shape.
type rerankScore struct {
	Index          *int     `json:"index"`
	Score          *float64 `json:"score"`           // TEI
	RelevanceScore *float64 `json:"relevance_score"` // Jina, Cohere
}

// Rerank implements Reranker.
func (h *HTTPReranker) Rerank(ctx context.Context, query string, docs []string) ([]float64, error) {
	if len(docs) == 0 {
		return []float64{}, nil
	}
	ep := hook.Endpoint{What: "rerank", URL: hook.Join(h.URL, "/rerank"), APIKey: h.APIKey, Timeout: h.Timeout, Client: h.Client}
	reply, err := ep.Post(ctx, rerankBody(query, docs, h.Model))
	if err != nil {
		return nil, err
	}
	var scored []rerankScore
	switch trimmed := bytes.TrimSpace(reply); {
	case bytes.HasPrefix(trimmed, []byte("[")):
		err = json.Unmarshal(trimmed, &scored)
	case bytes.HasPrefix(trimmed, []byte("{")):
		var wrapped struct {
			Results *[]rerankScore `json:"results"`
		}
		err = json.Unmarshal(trimmed, &wrapped)
		if err == nil && wrapped.Results == nil {
			return nil, ep.Malformed(reply, `an object without "results"`)
		}
		if err == nil {
			scored = *wrapped.Results
		}
	default:
		return nil, ep.Malformed(reply, `neither a list of {"index", "score"} nor {"results": [...]}`)
	}
	if err != nil {
		return nil, ep.Malformed(reply, "%v", err)
	}
	if len(scored) != len(docs) {
		return nil, ep.Malformed(reply, "%d scores for %d documents", len(scored), len(docs))
	}
	scores := make([]float64, len(docs))
	seen := make([]bool, len(docs))
	for k, s := range scored {
		score := s.Score
		if score == nil {
			score = s.RelevanceScore
		}
		switch {
		case s.Index == nil:
			return nil, ep.Malformed(reply, "result %d has no index", k)
		case *s.Index < 0 || *s.Index >= len(docs):
			return nil, ep.Malformed(reply, "index %d is out of range for %d documents", *s.Index, len(docs))
		case seen[*s.Index]:
			return nil, ep.Malformed(reply, "index %d is scored twice", *s.Index)
		case score == nil:
			return nil, ep.Malformed(reply, `index %d has neither "score" nor "relevance_score"`, *s.Index)
		}
		seen[*s.Index] = true
		scores[*s.Index] = *score
	}
	return scores, nil
}
