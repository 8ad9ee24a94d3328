package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/dsl"
	"github.com/medkb/medkb/internal/docio"
	"github.com/medkb/medkb/internal/ireval"
	"github.com/medkb/medkb/internal/tempstore"
	"github.com/medkb/medkb/internal/text"
)

// retrievalMethods are the arms and fusions bench retrieval compares, as
// query clauses; every method fetches enough chunks for recall@100.
var retrievalMethods = []struct{ name, clauses string }{
	{"bm25", "USING bm25(k=300)"},
	{"vector", "USING vector(k=300)"},
	{"rrf", "USING bm25(k=300), vector(k=300) FUSE rrf(k=60)"},
	{"weighted", "USING bm25(k=300), vector(k=300) FUSE weighted"},
	{"weighted-0.1", "USING bm25(k=300), vector(k=300) FUSE weighted(alpha=0.1)"},
	{"weighted-0.2", "USING bm25(k=300), vector(k=300) FUSE weighted(alpha=0.2)"},
	{"weighted-0.3", "USING bm25(k=300), vector(k=300) FUSE weighted(alpha=0.3)"},
	{"weighted-0.4", "USING bm25(k=300), vector(k=300) FUSE weighted(alpha=0.4)"},
	{"weighted-0.5", "USING bm25(k=300), vector(k=300) FUSE weighted(alpha=0.5)"},
	{"weighted-0.6", "USING bm25(k=300), vector(k=300) FUSE weighted(alpha=0.6)"},
	{"weighted-0.7", "USING bm25(k=300), vector(k=300) FUSE weighted(alpha=0.7)"},
	{"weighted-0.8", "USING bm25(k=300), vector(k=300) FUSE weighted(alpha=0.8)"},
	{"weighted-0.9", "USING bm25(k=300), vector(k=300) FUSE weighted(alpha=0.9)"},
	{"weighted-auto", "USING bm25(k=300), vector(k=300) FUSE weighted(alpha=auto)"},
	{"docvote", "USING bm25(k=300), vector(k=300) FUSE docvote(k=300)"},
	{"docvote-both", "USING bm25(k=300), vector(k=300) FUSE docvote(k=300, votes=both)"},
}

func benchRetrievalCmd(e *env) *cobra.Command {
	var docs, qrels string
	var queries []string
	var minSentences int
	var asJSON bool
	c := &cobra.Command{
		Use:   "retrieval --docs F(.jsonl|.tsv) --queries F.tsv [--queries F2.tsv] --qrels F.trec [--min-sentences N] [--json]",
		Short: "nDCG@10 and recall@100 of bm25, vector, rrf, weighted (alpha 0.1 to 0.9 and auto) and docvote on a judged collection",
		Long: `Ingests the documents into a temporary store and runs every query with each
method through the query language. Rankings are by document: a document
takes the rank of its best chunk. nDCG@10 uses the graded judgements as
gains; recall@100 counts grade >= 1 as relevant. Queries are "id<TAB>text",
qrels TREC "qid 0 docid grade". --backend weaviate --weaviate NODES runs
the same on a store that retrieves from a Weaviate cluster.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if docs == "" || len(queries) == 0 || qrels == "" {
				return fmt.Errorf("--docs, --queries and --qrels are required")
			}
			out, err := benchRetrieval(cmd.Context(), e.storeOptions(), docs, queries, qrels, minSentences)
			if err != nil {
				return err
			}
			if asJSON {
				return e.writeJSON(out)
			}
			fmt.Fprintf(e.stdout, "%d documents, %d judged queries (ingest %.1fs)\n", out.Docs, out.Queries, out.IngestSeconds)
			names := make([]string, 0, len(out.Methods))
			for n := range out.Methods {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				m := out.Methods[n]
				fmt.Fprintf(e.stdout, "%-13s nDCG@10 %.4f  recall@100 %.4f\n", n, m["ndcg@10"], m["recall@100"])
			}
			return nil
		},
	}
	c.Flags().StringVar(&docs, "docs", "", "documents: JSON Lines, or TSV id<TAB>text")
	c.Flags().StringSliceVar(&queries, "queries", nil, "queries: TSV id<TAB>text; given twice or more, the texts of one id are joined, one a line (a title and its description make a query of several sentences), and only ids in every file run")
	c.Flags().StringVar(&qrels, "qrels", "", "judgements: TREC qid 0 docid grade")
	c.Flags().IntVar(&minSentences, "min-sentences", 1, "run only the queries of at least this many sentences (docvote's case)")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	backendFlags(c, e)
	return c
}

type retrievalReport struct {
	Docs          int                           `json:"docs"`
	Queries       int                           `json:"queries"`
	IngestSeconds float64                       `json:"ingest_seconds"`
	Methods       map[string]map[string]float64 `json:"methods"`
}

// benchRetrieval runs the methods named in only (every method when only
// is empty) on a store opened with opts (nil: the defaults).
func benchRetrieval(ctx context.Context, opts *medkb.Options, docsPath string, queryPaths []string, qrelsPath string, minSentences int, only ...string) (*retrievalReport, error) {
	res, err := readDocs(docsPath)
	if err != nil {
		return nil, err
	}
	if err := res.Err(); err != nil {
		return nil, err
	}
	qs, err := readQueries(queryPaths)
	if err != nil {
		return nil, err
	}
	for id, q := range qs {
		if len(text.Sentences(q)) < minSentences {
			delete(qs, id)
		}
	}
	f, err := os.Open(qrelsPath)
	if err != nil {
		return nil, err
	}
	judged, err := ireval.ReadQrels(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", qrelsPath, err)
	}
	// Only the queries that run are averaged over: a judged query the
	// query files leave out (or --min-sentences drops) is not a miss.
	for id := range judged {
		if _, ok := qs[id]; !ok {
			delete(judged, id)
		}
	}
	db, err := tempstore.OpenWith(ctx, "medkb-bench-", res.Docs, opts)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	out := &retrievalReport{Docs: len(res.Docs), IngestSeconds: db.Ingest.Seconds(), Methods: map[string]map[string]float64{}}
	for _, m := range retrievalMethods {
		if len(only) > 0 && !slices.Contains(only, m.name) {
			continue
		}
		runs := map[string][]string{}
		for id, text := range qs {
			if _, ok := judged[id]; !ok {
				continue
			}
			r, err := db.Query(ctx, fmt.Sprintf("RETRIEVE %s %s LIMIT 600", dsl.Quote(text), m.clauses))
			if err != nil {
				return nil, fmt.Errorf("query %s: %w", id, err)
			}
			runs[id] = docRanking(r)
		}
		out.Queries = len(runs)
		out.Methods[m.name] = map[string]float64{
			"ndcg@10":    ireval.Mean(judged, runs, func(r []string, g map[string]int) float64 { return ireval.NDCG(r, g, 10) }),
			"recall@100": ireval.Mean(judged, runs, func(r []string, g map[string]int) float64 { return ireval.Recall(r, g, 100, 1) }),
		}
	}
	return out, nil
}

// docRanking turns ranked chunks into ranked documents (best chunk wins).
func docRanking(r *medkb.Result) []string {
	seen := map[string]bool{}
	var out []string
	for _, it := range r.Items {
		if it.Doc != "" && !seen[it.Doc] {
			seen[it.Doc] = true
			out = append(out, it.Doc)
		}
	}
	return out
}

func readDocs(path string) (*docio.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return docio.Read(f, path)
}

// readQueries reads the query files and joins the texts of each id, one
// a line; an id missing from a file is left out.
func readQueries(paths []string) (map[string]string, error) {
	var out map[string]string
	for _, path := range paths {
		qs, err := readPairs(path)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = qs
			continue
		}
		for id, q := range out {
			if more, ok := qs[id]; ok {
				out[id] = q + "\n" + more
			} else {
				delete(out, id)
			}
		}
	}
	return out, nil
}

func readPairs(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	err = ireval.ReadPairs(f, func(id, text string) error { out[id] = text; return nil })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
