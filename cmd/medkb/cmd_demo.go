package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
)

// demoQueries are the showcase: a packed English query with graph
// expansion, a packed Chinese query, a clinician's question about one
// report, a question the store knows nothing of, and an EXPLAIN ANALYZE.
var demoQueries = []struct{ title, query string }{
	{"Packed context for a cardiology question (English, graph expansion)",
		`RETRIEVE "chest pain, troponin 2.3 ng/mL" WHERE patient = "P001"
  FUSE rrf(k=60)
  EXPAND metapath "Disease -has_symptom-> Symptom"
  PACK budget 256 kmin 1`},
	{"Packed context for a nephrology question (Chinese)",
		`RETRIEVE "肌酐升高 肾穿刺活检 病理" USING bm25(k=20), vector(k=20) WHERE patient = "P002" FUSE rrf PACK budget 200 kmin 1`},
	{"A clinician's question about one report: the report the question names comes first",
		`RETRIEVE "该病人的血常规结果如何？" WHERE patient = "P004" PACK budget 128`},
	{"A question the store knows nothing of: nothing is packed, and the result says why",
		`RETRIEVE "how to adjust bicycle brakes and chain tension" PACK budget 256`},
	{"EXPLAIN ANALYZE: where the time goes and why the graph fired",
		`EXPLAIN ANALYZE RETRIEVE "长期忧虑 失眠多梦" EXPAND metapath "证候 -导致*1..4-> 证候" LIMIT 5 PACK budget 160`},
}

func demoCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "build a temporary store from the embedded sample and run showcase queries",
		Long: `Demo needs no store and no files: it builds a store in a temporary
directory from the sample medkb carries (documents in English and Chinese,
a knowledge graph), runs a few showcase queries on it (packed context with
graph expansion, a Chinese query, a question about one report, a question
the store knows nothing of, an EXPLAIN ANALYZE), prints each result, and
removes the store.

Example:
  medkb demo`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			dir, err := os.MkdirTemp("", "medkb-demo-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(dir)
			start := time.Now()
			db, err := medkb.Open(filepath.Join(dir, "kb"), nil)
			if err != nil {
				return err
			}
			defer db.Close()
			if err := medkb.LoadSample(ctx, db); err != nil {
				return err
			}
			s, err := db.Stats()
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "medkb demo: built a store from the embedded sample in %s: %d documents (T1 %d, T2 %d, T3 %d, T4 %d), %d chunks, %d entities, %d triples\n",
				time.Since(start).Round(time.Millisecond), s.Docs, s.Tiers["T1"], s.Tiers["T2"], s.Tiers["T3"], s.Tiers["T4"], s.Chunks, s.Entities, s.Triples)
			for i, q := range demoQueries {
				fmt.Fprintf(e.stdout, "\n=== %d. %s\n%s\n\n", i+1, q.title, q.query)
				res, err := db.Query(ctx, q.query)
				if err != nil {
					return fmt.Errorf("demo query %d: %w", i+1, err)
				}
				render(e.stdout, res)
			}
			return nil
		},
	}
}
