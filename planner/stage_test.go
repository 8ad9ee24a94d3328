package planner_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/medkb/medkb/planner"
)

// countdown is a context whose deadline passes at its n-th look: a query
// stopped at every point it looks at its context.
type countdown struct {
	context.Context
	looks atomic.Int64
}

func (c *countdown) Err() error {
	if c.looks.Add(-1) < 0 {
		return context.DeadlineExceeded
	}
	return nil
}

// TestDeadlineNamesTheStage stops one query at each look at its context
// in turn: every stop is a *StageError that wraps DeadlineExceeded and
// names a stage, the stages come in the order the query runs them, and
// once the query looks fewer times than the countdown it succeeds.
func TestDeadlineNamesTheStage(t *testing.T) {
	db := openSample(t)
	order := []string{planner.StageGraph, planner.StageEmbedding, planner.StageRetrieval, planner.StageFusion,
		planner.StageLoading, planner.StageExpansion, planner.StageRelevance, planner.StagePacking, planner.StageAssembling}
	src := `RETRIEVE "chest pain, troponin 2.3 ng/mL" USING bm25(k=50), vector(k=50) FUSE rrf(k=60)
		EXPAND metapath "Disease -has_symptom-> Symptom" PACK budget 512`
	last, seen := -1, map[string]bool{}
	for n := int64(0); ; n++ {
		ctx := &countdown{Context: context.Background()}
		ctx.looks.Store(n)
		_, err := db.Query(ctx, src)
		if err == nil {
			if n == 0 {
				t.Fatal("a query that never looked at its context")
			}
			break
		}
		var se *planner.StageError
		if !errors.As(err, &se) || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "timed out during "+se.Stage) {
			t.Fatalf("stopped at look %d: %v, want a *StageError wrapping DeadlineExceeded", n, err)
		}
		i := slices.Index(order, se.Stage)
		if i < last {
			t.Fatalf("look %d stopped in %q after a later stage (%q)", n, se.Stage, order[last])
		}
		last, seen[se.Stage] = i, true
		if n > 10000 {
			t.Fatal("the query looks at its context more than 10,000 times")
		}
	}
	// Graph loading waits on ctx.Done, which a countdown never closes;
	// TestIngestHetionet (cmd/medkb) times a real query out.
	for _, stage := range []string{planner.StageRetrieval, planner.StageExpansion, planner.StagePacking, planner.StageAssembling} {
		if !seen[stage] {
			t.Errorf("no look at the context stopped the query in %s (stopped in %v)", stage, seen)
		}
	}
}
