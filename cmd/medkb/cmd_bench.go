package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb/internal/bench/vectorbench"
)

func benchCmd(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "bench",
		Short: "measure medkb: vector, ingest, retrieval, query, pack, graph, evidence",
	}
	c.AddCommand(benchVectorCmd(e), benchIngestCmd(e), benchRetrievalCmd(e), benchQueryCmd(e), benchGraphCmd(e), benchPackCmd(e), benchEvidenceCmd(e), benchGateCmd(e))
	return c
}

func benchVectorCmd(e *env) *cobra.Command {
	var n, dim, queries int
	var asJSON bool
	c := &cobra.Command{
		Use:   "vector [--n N] [--dim D] [--json]",
		Short: "time exact top-10 search over N random vectors (median over queries)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if n < 1 || dim < 1 || queries < 1 {
				return fmt.Errorf("--n, --dim and --queries must be at least 1")
			}
			r := vectorbench.Run(n, dim, queries)
			if asJSON {
				return e.writeJSON(map[string]float64{"ms_per_query": r.MsPerQuery, "gb_per_s": r.GBPerS})
			}
			fmt.Fprintf(e.stdout, "exact top-10 over %d x %d: %.3f ms/query (median of %d), %.1f GB/s\n", n, dim, r.MsPerQuery, queries, r.GBPerS)
			return nil
		},
	}
	c.Flags().IntVar(&n, "n", 100000, "number of vectors")
	c.Flags().IntVar(&dim, "dim", 384, "dimension")
	c.Flags().IntVar(&queries, "queries", 200, "number of timed queries")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}
