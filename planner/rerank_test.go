package planner_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/internal/golden"
	"github.com/medkb/medkb/planner"
)

// wordReranker scores a document by the query words it holds, less a
// thousandth a byte of length, so that ties are rare and the order is
// not the fused one.
type wordReranker struct{ calls int }

func (w *wordReranker) Rerank(_ context.Context, query string, docs []string) ([]float64, error) {
	w.calls++
	scores := make([]float64, len(docs))
	for i, d := range docs {
		low := strings.ToLower(d)
		for _, q := range strings.Fields(strings.ToLower(query)) {
			if strings.Contains(low, q) {
				scores[i]++
			}
		}
		scores[i] -= float64(len(d)) / 1000
	}
	return scores, nil
}

// TestRerank pins what RERANK does to the order and provenance of the
// items, and its EXPLAIN ANALYZE line; the reranked items come first in
// descending rerank score.
func TestRerank(t *testing.T) {
	db := openSampleWith(t, &medkb.Options{Reranker: &wordReranker{}})
	golden.Run(t, filepath.Join("testdata", "rerank"), func(t *testing.T, c *golden.Case) string {
		r, err := db.Query(context.Background(), c.Input)
		if err != nil {
			return "error: " + err.Error()
		}
		if r.Mode != "run" {
			return timing.ReplaceAllString(r.Plan, "#.### ms")
		}
		var b strings.Builder
		last, tail := 0.0, false
		for i, it := range r.Items {
			score := "-"
			if s := it.Provenance.Rerank; s != nil {
				score = fmt.Sprintf("%.3f", *s)
				if tail || i > 0 && *s > last {
					t.Errorf("%s: item %d (rerank %g) out of rerank order", c.Input, it.Rank, *s)
				}
				last = *s
			} else {
				tail = true
			}
			fmt.Fprintf(&b, "item %d %s rerank=%s fused=%.4f\n", it.Rank, it.ID, score, it.Provenance.Fused)
		}
		return b.String()
	})
}

// TestRerankNeedsAReranker: without one, a statement with RERANK fails
// when it would run, before any work, and is still explained.
func TestRerankNeedsAReranker(t *testing.T) {
	db := openSample(t)
	ctx := context.Background()
	if _, err := db.Query(ctx, `RETRIEVE "chest pain" RERANK`); !errors.Is(err, planner.ErrNoReranker) {
		t.Fatalf("Query: got %v, want ErrNoReranker", err)
	}
	if _, err := db.Explain(ctx, `EXPLAIN ANALYZE RETRIEVE "chest pain" RERANK`); !errors.Is(err, planner.ErrNoReranker) {
		t.Fatalf("EXPLAIN ANALYZE: got %v, want ErrNoReranker", err)
	}
	plan, err := db.Explain(ctx, `EXPLAIN RETRIEVE "chest pain" RERANK top 7`)
	if err != nil || !strings.Contains(plan, "Rerank top=7") {
		t.Fatalf("EXPLAIN: %v\n%s", err, plan)
	}
}

// failingReranker fails every call.
type failingReranker struct{}

func (failingReranker) Rerank(context.Context, string, []string) ([]float64, error) {
	return nil, errors.New("reranker broke")
}

// shortReranker returns one score too few.
type shortReranker struct{}

func (shortReranker) Rerank(_ context.Context, _ string, docs []string) ([]float64, error) {
	return make([]float64, len(docs)-1), nil
}

// TestRerankErrors: a reranker's error, or a wrong number of scores,
// fails the query with it.
func TestRerankErrors(t *testing.T) {
	for _, tc := range []struct {
		r    medkb.Reranker
		want string
	}{
		{failingReranker{}, "reranker broke"},
		{shortReranker{}, "returned 4 scores for 5 documents"},
	} {
		db := openSampleWith(t, &medkb.Options{Reranker: tc.r})
		_, err := db.Query(context.Background(), `RETRIEVE "chest pain" RERANK top 5`)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%T: got %v, want %q", tc.r, err, tc.want)
		}
	}
}
