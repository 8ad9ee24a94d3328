package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/internal/docio"
)

func ingestCmd(e *env) *cobra.Command {
	var skipBad bool
	c := &cobra.Command{
		Use:   "ingest [--skip-bad] FILE...",
		Short: "add or replace documents (JSON Lines, TSV) in the store",
		Long: `Ingest upserts documents by id. Each file is one atomic write: by default a file
with any bad line is rejected whole, naming file:line and the reason for the
first 20 bad lines, and the store is left exactly as it was. --skip-bad
ingests the good lines and reports the bad ones.

Documents are JSON Lines ({"id", "text", ...}; see the README) or TSV
(id<TAB>text). Knowledge-graph files are recognised by their content:
triples as JSON Lines {"head", "head_type", "relation", "tail",
"tail_type"} or TSV with those columns, entities {"name", "type",
"aliases"}, TCM relations {"Disease": ..., "Syndrome": ..., "Relation":
...}, and Hetionet node and edge TSVs (a directory is read whole, nodes
first). All graph input of one run is one atomic write.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			inputs, err := classifyInputs(args)
			if err != nil {
				return err
			}
			db, err := e.open(false)
			if err != nil {
				return err
			}
			defer db.Close()
			gi := &graphInput{}
			for _, in := range inputs {
				if in.kind == graph.KindDocuments {
					err = e.ingestFile(cmd, db, in.path, skipBad)
				} else {
					err = e.readGraphFile(db, gi, in, skipBad)
				}
				if err != nil {
					return err
				}
			}
			return e.commitGraph(cmd, db, gi)
		},
	}
	c.Flags().BoolVar(&skipBad, "skip-bad", false, "ingest the good lines of a file and report the bad ones")
	return e.storeFlags(c)
}

func (e *env) ingestFile(cmd *cobra.Command, db *medkb.DB, path string, skipBad bool) error {
	start := time.Now()
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	res, err := docio.Read(f, path)
	if err != nil {
		return err
	}
	if bad := res.Err(); bad != nil {
		if !skipBad {
			return fmt.Errorf("%s rejected, nothing ingested: %w", path, bad)
		}
		fmt.Fprintf(e.stderr, "medkb: skipping %v\n", bad)
	}
	var bar *progressbar.ProgressBar
	if isTerminal(e.stderr) && len(res.Docs) >= 1000 {
		bar = progressbar.NewOptions(len(res.Docs), progressbar.OptionSetWriter(e.stderr),
			progressbar.OptionSetDescription(filepath.Base(path)), progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish())
	}
	out, err := db.IngestProgress(cmd.Context(), res.Docs, func(done, total int) {
		if bar != nil {
			bar.Set(done)
		}
	})
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, lineOf(err, res))
	}
	st, err := db.Stats()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: ingested %d document(s) (%d chunk(s), %d bad line(s) skipped) in %s; store has %d document(s)\n",
		path, out.Docs, out.Chunks, res.NBad, time.Since(start).Round(time.Millisecond), st.Docs)
	if out.IndexErr != nil {
		fmt.Fprintf(e.stderr, "medkb: %s: the documents are committed, but queries fail until the index catches up: %v\n", path, out.IndexErr)
	}
	return nil
}

// lineOf maps "document N" in an ingest error back to its input line.
func lineOf(err error, res *docio.Result) error {
	var de *medkb.DocError
	if errors.As(err, &de) && de.Index < len(res.Lines) {
		return fmt.Errorf("line %d: %w", res.Lines[de.Index], de.Err)
	}
	return err
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
