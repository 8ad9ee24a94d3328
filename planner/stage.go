package planner

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// The stages of a query, as a StageError names them, in the order they
// run.
const (
	StageGraph      = "graph loading"
	StageGate       = "completeness gate"
	StageEmbedding  = "query embedding"
	StageRetrieval  = "retrieval"
	StageFusion     = "fusion"
	StageLoading    = "candidate loading"
	StageExpansion  = "graph expansion"
	StageRelevance  = "relevance"
	StageRerank     = "reranking"
	StagePacking    = "packing"
	StageAssembling = "context assembly"
)

// StageError is a query stopped by its context: its deadline passed
// (Err is context.DeadlineExceeded) or it was cancelled, during Stage,
// Elapsed after the query began. errors.Is(err,
// context.DeadlineExceeded) holds for a timeout.
type StageError struct {
	Stage   string
	Elapsed time.Duration
	Err     error
}

func (e *StageError) Error() string {
	what := "cancelled"
	if errors.Is(e.Err, context.DeadlineExceeded) {
		what = "timed out"
	}
	return fmt.Sprintf("medkb: query %s during %s after %v", what, e.Stage, e.Elapsed.Round(time.Millisecond))
}

func (e *StageError) Unwrap() error { return e.Err }

// checkEvery is how many candidates the loops over candidates handle
// between looks at the context: each costs at most a tokenizer call or a
// scan of a chunk's text, so a look every 64 is well under a millisecond
// apart.
const checkEvery = 64

// clock times one query from its start, for the StageError of a query
// its context stops.
type clock struct{ start time.Time }

func startClock() clock { return clock{start: time.Now()} }

// check returns a *StageError for stage when ctx has ended, whatever
// err is (an error is then most likely the context's doing, in whatever
// words the callee put it); else err.
func (c clock) check(ctx context.Context, stage string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return &StageError{Stage: stage, Elapsed: time.Since(c.start), Err: cerr}
	}
	return err
}
