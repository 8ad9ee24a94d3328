package main

import (
	"fmt"

	"github.com/medkb/medkb"
	"github.com/spf13/cobra"
)

func showCmd(e *env) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "show [--json] ID...",
		Short: "print documents with their chunks, tiers, state-B texts and token counts",
		Long: `Show prints each document named by id as the store holds it: its fields,
then every chunk with its ordinal, token count, text, tier and how that
tier was decided (the document's tier field, its type, its text, or the
chunk's own text), and its state-B text (the compressed form EBM-Pack
may pack) with the keys it keeps. --json prints the same as JSON. An id
the store does not hold is an error (exit 1).

Examples:
  medkb show --db kb P001-lab-06
  medkb show --db kb --json P001-lab-06 P001-note-02`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, ids []string) error {
			db, err := e.connect(true)
			if err != nil {
				return err
			}
			defer db.Close()
			docs, err := db.Show(ids)
			if err != nil {
				return err
			}
			if asJSON {
				return e.writeJSON(docs)
			}
			for _, d := range docs {
				fmt.Fprintf(e.stdout, "%s  %s  type=%s patient=%s time=%s lang=%s\n", d.ID, d.Tier, d.Type, d.Patient, d.Time, d.Lang)
				if d.Title != "" {
					fmt.Fprintf(e.stdout, "  title: %s\n", d.Title)
				}
				for _, c := range d.Chunks {
					permanent := ""
					if c.Permanent {
						permanent = ", permanent (no time decay)"
					}
					fmt.Fprintf(e.stdout, "  [%d] ord %d, %d tokens%s: %s\n", c.Index, c.Ord, c.Tokens, permanent, c.Text)
					fmt.Fprintf(e.stdout, "      %s\n", tierLine(c))
					if c.TextB != "" {
						fmt.Fprintf(e.stdout, "      state B, %d tokens, keeps %d/%d keys: %s\n", c.TokensB, c.NEntity, c.NTotal, c.TextB)
					}
				}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return e.routedStoreFlags(c, "")
}

// tierLine says a chunk's tier and how it was decided: by the document
// (its tier field, its type, its whole text) or by the chunk's own text.
func tierLine(c medkb.ChunkView) string {
	switch c.TierOf {
	case medkb.TierOfChunk:
		return fmt.Sprintf("tier %s by %s, on this chunk's own text", c.Tier, c.TierBy)
	case medkb.TierOfDocument:
		return fmt.Sprintf("tier %s by %s, the document's", c.Tier, c.TierBy)
	}
	return fmt.Sprintf("tier %s; how it was decided is not recorded (written before medkb recorded it: `medkb rebuild` records it)", c.Tier)
}
