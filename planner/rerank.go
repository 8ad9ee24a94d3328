package planner

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"
)

// Reranker scores documents against a query, one score per document in
// the order given; a higher score is more relevant. It is a model the
// store does not ship (a cross-encoder behind TEI, Jina or Cohere's
// rerank API, say), configured per store or per process and never in the
// statement's text. The root package has an HTTP implementation.
type Reranker interface {
	Rerank(ctx context.Context, query string, docs []string) ([]float64, error)
}

// ErrNoReranker is the error of a statement with RERANK run where no
// reranker is configured.
var ErrNoReranker = errors.New("medkb: RERANK needs a reranker and none is configured " +
	"(medkb.Options.Reranker; $MEDKB_RERANK_URL for the medkb command)")

// RerankNode sends the text of the Top candidates to Env.Reranker.
type RerankNode struct {
	Top int
}

// rerank sends the first Top chunks of cands (graph paths stay out: their
// text is the linker's sentence, not evidence a reranker was trained on)
// to the reranker with the query text, and returns cands with those
// chunks first, by rerank score (ties in their earlier order), then
// everything else in its earlier order: graph paths and the chunks
// beyond Top. Each reranked candidate keeps its score for provenance.
func (x *execution) rerank(ctx context.Context, cands []*candidate) ([]*candidate, error) {
	start := time.Now()
	var picked, rest []*candidate
	for _, c := range cands {
		if c.path == nil && len(picked) < x.p.Rerank.Top {
			picked = append(picked, c)
		} else {
			rest = append(rest, c)
		}
	}
	if len(picked) == 0 {
		x.report(opRerank, len(cands), len(cands), start, "nothing to rerank")
		return cands, nil
	}
	docs := make([]string, len(picked))
	for i, c := range picked {
		docs[i] = c.text()
	}
	scores, err := x.env.Reranker.Rerank(ctx, x.p.Query.Text, docs)
	if err != nil {
		return nil, err
	}
	if len(scores) != len(docs) {
		return nil, fmt.Errorf("medkb: rerank: the reranker returned %d scores for %d documents", len(scores), len(docs))
	}
	for i, c := range picked {
		c.rerank = &scores[i]
	}
	sort.SliceStable(picked, func(i, j int) bool { return *picked[i].rerank > *picked[j].rerank })
	out := append(picked, rest...)
	x.report(opRerank, len(cands), len(out), start, fmt.Sprintf("reranked %d of %d candidates", len(picked), len(cands)))
	return out, nil
}
