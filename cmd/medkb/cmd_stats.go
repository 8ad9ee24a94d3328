package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func statsCmd(e *env) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "stats [--json]",
		Short: "print document, chunk, vector and tier counts",
		Long: `Stats prints what the store holds: its generation, the documents by tier,
chunks, vectors with the embedder and its dimension, the knowledge graph's
entities and triples, and the write sequence (which every committed write
advances). It opens the store read-only.

Examples:
  medkb stats --db kb
  medkb stats --db kb --json | jq .docs`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := e.connect(true)
			if err != nil {
				return err
			}
			defer db.Close()
			s, err := db.Stats()
			if err != nil {
				return err
			}
			if asJSON {
				return e.writeJSON(s)
			}
			fmt.Fprintf(e.stdout, "generation  %s\ndocuments   %d (T1 %d, T2 %d, T3 %d, T4 %d)\nchunks      %d\nvectors     %d (%s, dim %d)\ngraph       %d entities, %d triples\nsequence    %d\n",
				s.Generation, s.Docs, s.Tiers["T1"], s.Tiers["T2"], s.Tiers["T3"], s.Tiers["T4"],
				s.Chunks, s.Vectors, s.Embedder, s.Dim, s.Entities, s.Triples, s.Seq)
			if s.Backend != "" {
				fmt.Fprintf(e.stdout, "backend     %s\n", s.Backend)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return e.routedStoreFlags(c, "")
}
