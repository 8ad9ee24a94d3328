package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func checkCmd(e *env) *cobra.Command {
	return e.storeFlags(&cobra.Command{
		Use:   "check",
		Short: "verify that bbolt, the BM25 index and the vector slab agree (exit 1 if not)",
		Long: `Check opens the store read-write (so that an index left behind by an
interrupted writer is replayed first), then verifies the bbolt file, the
invariants between documents, chunks and vector slots, the counters, and
that the BM25 index and the vector slab hold exactly the stored chunks.
Every inconsistency is printed; the exit status is 1 when there is any.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := e.open(false)
			if err != nil {
				return err
			}
			defer db.Close()
			problems, err := db.Check()
			if err != nil {
				return err
			}
			for _, p := range problems {
				fmt.Fprintln(e.stdout, "inconsistent:", p)
			}
			if len(problems) > 0 {
				fmt.Fprintf(e.stderr, "medkb: check found %d problem(s)\n", len(problems))
				return errSilent
			}
			s, err := db.Stats()
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "ok: %d documents, %d chunks, %d vectors agree (generation %s)\n", s.Docs, s.Chunks, s.Vectors, s.Generation)
			return nil
		},
	})
}
