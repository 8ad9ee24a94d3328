package medkb

import (
	"context"
	"slices"
	"testing"
	"time"
)

// BenchmarkQueryInProcess and BenchmarkQuerySocket run the same
// statement on the sample store, in process and through medkb serve's
// socket: the difference is what the server costs a query (issue 19's
// target: within 1 ms of the in-process p50, which p50-ns reports).
func BenchmarkQueryInProcess(b *testing.B) {
	db := openSample(b)
	benchQuery(b, db.QueryParams)
}

func BenchmarkQuerySocket(b *testing.B) {
	c := serve(b, openSample(b))
	benchQuery(b, c.QueryParams)
}

func benchQuery(b *testing.B, query func(context.Context, string, Params) (*Result, error)) {
	ctx := context.Background()
	if _, err := query(ctx, serveQuery, serveParams); err != nil { // warm: graph, caches, connection
		b.Fatal(err)
	}
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := query(ctx, serveQuery, serveParams); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2]), "p50-ns")
}
