package main

import (
	"errors"
	"fmt"

	"github.com/medkb/medkb"

	"github.com/spf13/cobra"
)

func checkCmd(e *env) *cobra.Command {
	return e.storeFlags(&cobra.Command{
		Use:   "check",
		Short: "verify that bbolt, the BM25 index and the vector slab agree, repairing the BM25 index (exit 1 if not)",
		Long: `Check opens the store read-write, which replays into the BM25 index what an
interrupted or failed writer left out and rebuilds a damaged index from the
store, then verifies the bbolt file, the invariants between documents,
chunks and vector slots, the counters, every BM25 segment's checksum, and
that the BM25 index and the vector slab hold exactly the stored chunks.
When only the BM25 index is wrong, check rebuilds it from the store in
place and checks again. What it repaired goes to stderr; every remaining
inconsistency is printed, and the exit status is 1 when there is any.`,
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
			if len(problems) > 0 && indexOnly(problems) {
				for _, p := range problems {
					fmt.Fprintln(e.stderr, "medkb: found:", p)
				}
				note, err := db.RepairIndex()
				if err != nil {
					return err
				}
				fmt.Fprintln(e.stderr, "medkb: repaired:", note)
				if problems, err = db.Check(); err != nil {
					return err
				}
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

// indexOnly reports whether every problem is the BM25 index's, which a
// rebuild of the index from the store fixes.
func indexOnly(problems []error) bool {
	for _, p := range problems {
		if !errors.Is(p, medkb.ErrIndexDamaged) && !errors.Is(p, medkb.ErrIndexBehind) {
			return false
		}
	}
	return true
}
