package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

func benchQueryCmd(e *env) *cobra.Command {
	var queries, cpuProfile string
	var runs int
	var asJSON, stages bool
	c := &cobra.Command{
		Use:   "query --db DIR --queries FILE [--runs N] [--stages] [--json]",
		Short: "p50/p99 latency of full queries, in process, after a warm-up",
		Long: `Each non-blank line of FILE (not starting with --) is one statement. Every
statement runs once to warm up, then N times; the report gives the median
and 99th percentile over all timed runs, in milliseconds. With --stages
the statements run under EXPLAIN ANALYZE, and the report adds the median
and 99th percentile of each operator's time (each retrieval arm timed by
itself).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if queries == "" || runs < 1 {
				return fmt.Errorf("--queries FILE and --runs >= 1 are required")
			}
			stmts, err := readStatements(queries)
			if err != nil {
				return err
			}
			db, err := e.open(true)
			if err != nil {
				return err
			}
			defer db.Close()
			ctx := context.Background()
			for _, q := range stmts {
				if _, err := db.Query(ctx, q); err != nil {
					return fmt.Errorf("warm-up of %q: %w", q, err)
				}
			}
			stop, err := startCPUProfile(cpuProfile)
			if err != nil {
				return err
			}
			defer stop()
			var took []float64
			ops := map[string][]float64{}
			var order []string // operators as first seen
			for r := 0; r < runs; r++ {
				for _, q := range stmts {
					if stages && !strings.HasPrefix(strings.ToUpper(q), "EXPLAIN") {
						q = "EXPLAIN ANALYZE " + q
					}
					start := time.Now()
					res, err := db.Query(ctx, q)
					if err != nil {
						return err
					}
					took = append(took, float64(time.Since(start).Microseconds())/1000)
					for _, op := range res.Analyze {
						if _, ok := ops[op.Op]; !ok {
							order = append(order, op.Op)
						}
						ops[op.Op] = append(ops[op.Op], op.Millis)
					}
				}
			}
			sort.Float64s(took)
			out := map[string]any{"p50_ms": percentile(took, 0.50), "p99_ms": percentile(took, 0.99), "queries": len(stmts)}
			perOp := map[string]map[string]float64{}
			for _, op := range order {
				sort.Float64s(ops[op])
				perOp[op] = map[string]float64{"p50_ms": percentile(ops[op], 0.50), "p99_ms": percentile(ops[op], 0.99)}
			}
			if stages {
				out["stages"] = perOp
			}
			if asJSON {
				return e.writeJSON(out)
			}
			fmt.Fprintf(e.stdout, "%d statements x %d runs: p50 %.3f ms, p99 %.3f ms\n", len(stmts), runs, out["p50_ms"], out["p99_ms"])
			for _, op := range order {
				fmt.Fprintf(e.stdout, "  %-16s p50 %.3f ms, p99 %.3f ms\n", op, perOp[op]["p50_ms"], perOp[op]["p99_ms"])
			}
			return nil
		},
	}
	c.Flags().StringVar(&queries, "queries", "", "file with one statement a line")
	c.Flags().IntVar(&runs, "runs", 20, "timed runs of every statement")
	c.Flags().BoolVar(&stages, "stages", false, "run under EXPLAIN ANALYZE and report each operator's times")
	c.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the timed runs to this file (go tool pprof)")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return e.storeFlags(c)
}

// percentile of sorted values, nearest rank.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func readStatements(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "--") {
			out = append(out, l)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no statement", path)
	}
	return out, nil
}
