package planner_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/internal/golden"
	"github.com/medkb/medkb/internal/text"
)

// openSample builds a store from the embedded sample corpus and graph.
func openSample(t *testing.T) *medkb.DB {
	t.Helper()
	return openSampleWith(t, nil)
}

// openSampleWith is openSample with options (a reranker, say).
func openSampleWith(t *testing.T, opts *medkb.Options) *medkb.DB {
	t.Helper()
	db, err := medkb.Open(filepath.Join(t.TempDir(), "kb"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := medkb.LoadSample(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return db
}

var timing = regexp.MustCompile(`[0-9]+\.[0-9]{3} ms`)

// TestExplain pins EXPLAIN output (and EXPLAIN ANALYZE with times masked).
func TestExplain(t *testing.T) {
	db := openSample(t)
	golden.Run(t, filepath.Join("testdata", "explain"), func(t *testing.T, c *golden.Case) string {
		out, err := db.Explain(context.Background(), c.Input)
		if err != nil {
			return "error: " + err.Error()
		}
		return timing.ReplaceAllString(out, "#.### ms")
	})
}

// TestResults pins what queries return: items with their provenance,
// drops, expansion, the packed context and its sources. The context must
// cost exactly the tokens the result reports, so that a budget bounds
// what a prompt receives.
func TestResults(t *testing.T) {
	db := openSample(t)
	tok, err := text.NewTokenizer()
	if err != nil {
		t.Fatal(err)
	}
	golden.Run(t, filepath.Join("testdata", "results"), func(t *testing.T, c *golden.Case) string {
		r, err := db.Query(context.Background(), c.Input)
		if err != nil {
			return "error: " + err.Error()
		}
		if n := tok.Count(r.Context); n != r.TokensUsed || r.Budget > 0 && n > r.Budget {
			t.Errorf("%s: context costs %d tokens, result says %d of budget %d", c.Input, n, r.TokensUsed, r.Budget)
		}
		var b strings.Builder
		fmt.Fprintf(&b, "budget %d, used %d, %s, tiers %v\n", r.Budget, r.TokensUsed, r.QuotaSummary(), r.Tiers)
		fmt.Fprintf(&b, "expansion fired=%t anchors=%v reason=%q paths=%d\n", r.Expansion.Fired, r.Expansion.Anchors, r.Expansion.Reason, len(r.Expansion.Paths))
		fmt.Fprintf(&b, "relevance %s: %s\n", r.Relevance.Mode, r.Relevance.Note)
		if g := r.Gate; g != nil {
			fmt.Fprintf(&b, "gate %s I=%.4f retrieved=%t: %s\n", g.Decision, g.Score, g.Retrieved, g.Note)
			for _, s := range g.Sentences {
				fmt.Fprintf(&b, "  %s (%s) %s\n", s.Label, s.Why, s.Text)
			}
		}
		for _, it := range r.Items {
			fmt.Fprintf(&b, "item %d %s %s state=%s tokens=%d why=%s", it.Rank, it.ID, it.Tier, it.State, it.Tokens, it.Why)
			if p := it.Provenance.BM25; p != nil {
				fmt.Fprintf(&b, " bm25=#%d", p.Rank)
			}
			if p := it.Provenance.Vector; p != nil {
				fmt.Fprintf(&b, " vector=#%d", p.Rank)
			}
			b.WriteByte('\n')
		}
		reasons := map[string]int{}
		for _, d := range r.Dropped {
			reasons[d.Reason]++
		}
		fmt.Fprintf(&b, "dropped %v\n", reasons)
		b.WriteString(r.Context)
		for _, src := range r.Sources {
			b.WriteString("source " + src.String() + "\n")
		}
		return b.String()
	})
}
