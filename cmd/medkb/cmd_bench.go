package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb/index/vector"
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
	var scan, queryFile string
	var sources []string
	var asJSON bool
	c := &cobra.Command{
		Use:   "vector [--n N] [--dim D] [--scan f32|int8] [--source DOCS --source-queries QUERIES] [--json]",
		Short: "time exact top-10 search over N vectors against the machine's memory bandwidth",
		Long: `Time exact top-10 search over N random unit vectors (or, with --source,
windows of 10 words of those "ID<TAB>text" documents embedded by the built-in
embedder, queried by the --source-queries file), after measuring the
machine's streaming read bandwidth in the same process. It prints the
kernel, the bandwidth, the median scan time, the memory floor (the
slab's bytes over the bandwidth) and their ratio; with --scan int8 also
the bytes of codes a query reads (the median: an int8 scan skips the
dimensions where the query is zero) and the recall@10 of int8 with
rescoring against the exact f32 scan. int8 rescores
from memory here; a store rescores from its file.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if n < 1 || dim < 1 || queries < 1 {
				return fmt.Errorf("--n, --dim and --queries must be at least 1")
			}
			cfg := vectorbench.Config{N: n, Dim: dim, Queries: queries}
			switch scan {
			case "f32":
				cfg.Scan = vector.ScanF32
			case "int8":
				cfg.Scan = vector.ScanInt8
			default:
				return fmt.Errorf("--scan is %q; use f32 or int8", scan)
			}
			if (len(sources) == 0) != (queryFile == "") {
				return fmt.Errorf("--source and --source-queries go together")
			}
			if len(sources) > 0 {
				var err error
				if cfg.Slab, cfg.Qs, err = vectorbench.Embedded(n, dim, queryFile, sources...); err != nil {
					return err
				}
			}
			r := vectorbench.Run(cfg)
			if asJSON {
				return e.writeJSON(map[string]any{"kernel": r.Kernel, "ms_per_query": r.MsPerQuery, "gb_per_s": r.GBPerS,
					"bandwidth_gb_per_s": r.Bandwidth, "floor_ms": r.FloorMs, "ratio": r.Ratio, "bytes_scanned": r.BytesScanned,
					"codes_read": r.CodesRead, "rescore": r.Rescore, "recall_at_10": r.Recall})
			}
			if cfg.Slab != nil {
				n, queries = len(cfg.Slab)/dim, len(cfg.Qs)/dim
			}
			fmt.Fprintf(e.stdout, "exact top-10 over %d x %d, scan=%s, %d queries\n%s", n, dim, scan, queries, r)
			return nil
		},
	}
	c.Flags().IntVar(&n, "n", 100000, "number of vectors (at most, with --source)")
	c.Flags().IntVar(&dim, "dim", 384, "dimension")
	c.Flags().IntVar(&queries, "queries", 200, "number of timed queries (random vectors only)")
	c.Flags().StringVar(&scan, "scan", "f32", "scan: f32 (exact) or int8 (int8 codes, exact rescoring)")
	c.Flags().StringArrayVar(&sources, "source", nil, "embed windows of these documents (e.g. NFCorpus test.docs) instead of random vectors; repeatable")
	c.Flags().StringVar(&queryFile, "source-queries", "", "queries for --source (e.g. NFCorpus test.titles.queries)")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

// startCPUProfile starts a CPU profile written to path, for the bench
// commands' --cpuprofile; stop ends it. An empty path profiles nothing.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
