package pack

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/base"
)

// TestPackContextStops: every strategy returns the context's error, and
// no result, when the context has ended; Exact near its table bound and
// Uniform with a slow tokenizer stop soon after a deadline instead of
// finishing their work.
func TestPackContextStops(t *testing.T) {
	cands := benchCandidates(1000)
	p := DefaultParams()
	p.Now = base.Day(20700)
	p.Count = func(_ int, s string) int { return len(strings.Fields(s)) }
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for _, s := range []Strategy{Ebm, Paper, Exact, FIFO, Semantic, Uniform} {
		p.Strategy = s
		if r, err := new(Packer).PackContext(done, cands, p); !errors.Is(err, context.Canceled) || r != nil {
			t.Errorf("%s: %v, %v", s, r, err)
		}
	}

	// The promise is the deadline plus 10 % and 200 ms: a loaded machine
	// may not schedule the packer for a while.
	const timeout = 20 * time.Millisecond
	const slack = timeout/10 + 200*time.Millisecond
	slow := p
	slow.Count = func(_ int, s string) int { time.Sleep(100 * time.Microsecond); return len(strings.Fields(s)) }
	for _, c := range []struct {
		s      Strategy
		budget int
		p      Params
	}{{Exact, 8000, p}, {Uniform, 20000, slow}} {
		c.p.Strategy, c.p.Budget = c.s, c.budget
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		start := time.Now()
		_, err := new(Packer).PackContext(ctx, cands, c.p)
		took := time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || took > timeout+slack {
			t.Errorf("%s: %v after %v (timeout %v)", c.s, err, took, timeout)
		}
	}
}
