package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
)

func checkCmd(e *env) *cobra.Command {
	return e.routedStoreFlags(&cobra.Command{
		Use:   "check",
		Short: "verify the bbolt file, its records and that the BM25 index and vector slab agree (exit 1 if not)",
		Long: `Check verifies the system of record first, without writing to it: the
bbolt file page by page (a damaged, zeroed or truncated page is named),
every record against its checksum, the invariants between documents,
chunks and vector slots, and the counters. A damaged store is reported
and left as it is. Only a sound one is then opened read-write (which
replays into the BM25 index what an interrupted or failed writer left out,
and rebuilds a damaged index) to check every BM25 segment's checksum and
that the BM25 index and the vector slab hold exactly the stored chunks.
When only the BM25 index is wrong, check rebuilds it from the store in
place and checks again. What it repaired goes to stderr; every remaining
problem is printed, and the exit status is 1 when there is any.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r, err := withServer(e,
				func(c *medkb.Client) (*medkb.CheckReport, error) { return c.Verify(cmd.Context()) },
				func() (*medkb.CheckReport, error) { return medkb.Check(e.db, e.options(false)) })
			if err != nil {
				return err
			}
			for _, p := range r.Fixed {
				fmt.Fprintln(e.stderr, "medkb: found:", p)
			}
			for _, note := range r.Repaired {
				fmt.Fprintln(e.stderr, "medkb: repaired:", note)
			}
			for _, p := range r.Problems {
				fmt.Fprintln(e.stdout, "problem:", strings.TrimPrefix(p.Error(), "medkb: "))
			}
			if len(r.Problems) > 0 {
				fmt.Fprintf(e.stderr, "medkb: check found %d problem(s)\n", len(r.Problems))
				return errSilent
			}
			s := r.Stats
			fmt.Fprintf(e.stdout, "ok: %d documents, %d chunks, %d vectors agree (generation %s)\n", s.Docs, s.Chunks, s.Vectors, s.Generation)
			return nil
		},
	}, checkServerHelp)
}

// checkServerHelp is what differs when a server holds the store.
const checkServerHelp = `Through a server, the server checks the generation it has open the same
way (DB.Verify), repairing the BM25 index in place when only it is wrong.`
