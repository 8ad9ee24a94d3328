package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/docio"
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
		Args:  cobra.NoArgs,
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
			if err := loadSample(ctx, db); err != nil {
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

// loadSample ingests the embedded corpus and graph.
func loadSample(ctx context.Context, db *medkb.DB) error {
	fsys := medkb.Sample()
	f, err := fsys.Open("corpus/docs.jsonl")
	if err != nil {
		return err
	}
	res, err := docio.ReadJSONL(f, "corpus/docs.jsonl")
	f.Close()
	if err != nil {
		return err
	}
	if err := res.Err(); err != nil {
		return err
	}
	if _, err := db.Ingest(ctx, publicDocs(res.Docs)); err != nil {
		return err
	}
	var ents []medkb.Entity
	var triples []medkb.Triple
	if err := readFS(fsys, "graph/entities.jsonl", func(f fs.File) error {
		return graph.ReadEntities(f, "graph/entities.jsonl", func(x base.Entity) error { ents = append(ents, medkb.Entity(x)); return nil })
	}); err != nil {
		return err
	}
	if err := readFS(fsys, "graph/kg.jsonl", func(f fs.File) error {
		return graph.ReadTriples(f, "graph/kg.jsonl", func(t base.Triple) error { triples = append(triples, medkb.Triple(t)); return nil })
	}); err != nil {
		return err
	}
	_, err = db.IngestGraph(ctx, ents, triples)
	return err
}

func readFS(fsys fs.FS, name string, fn func(fs.File) error) error {
	f, err := fsys.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return fn(f)
}
