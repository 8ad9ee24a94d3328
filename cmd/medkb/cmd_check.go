package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
)

func checkCmd(e *env) *cobra.Command {
	return e.storeFlags(&cobra.Command{
		Use:   "check",
		Short: "verify the bbolt file, its records and that the BM25 index and vector slab agree (exit 1 if not)",
		Long: `Check verifies the system of record first, without writing to it: the
bbolt file page by page (a damaged, zeroed or truncated page is named),
every record against its checksum, the invariants between documents,
chunks and vector slots, and the counters. A damaged store is reported
and left as it is. Only a sound one is then opened read-write (so that an
index left behind by an interrupted writer is replayed) to check that the
BM25 index and the vector slab hold exactly the stored chunks. Every
problem is printed; the exit status is 1 when there is any.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			problems, s, err := medkb.Check(e.db, &medkb.Options{LockTimeout: e.lockTimeout})
			if err != nil {
				return err
			}
			for _, p := range problems {
				fmt.Fprintln(e.stdout, "problem:", strings.TrimPrefix(p.Error(), "medkb: "))
			}
			if len(problems) > 0 {
				fmt.Fprintf(e.stderr, "medkb: check found %d problem(s)\n", len(problems))
				return errSilent
			}
			fmt.Fprintf(e.stdout, "ok: %d documents, %d chunks, %d vectors agree (generation %s)\n", s.Docs, s.Chunks, s.Vectors, s.Generation)
			return nil
		},
	})
}
