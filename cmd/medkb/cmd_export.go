package main

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
)

func exportCmd(e *env) *cobra.Command {
	return e.routedStoreFlags(&cobra.Command{
		Use:   "export",
		Short: "print every document as JSON Lines, with its resolved tier and type",
		Long: `Export prints every document of the store on standard output, one JSON
object a line, in the form ingest reads, with the tier and type the store
resolved for it. It opens the store read-only.

Examples:
  medkb export --db kb > docs.jsonl
  medkb export --db kb | medkb ingest --db kb2 -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := e.connect(true)
			if err != nil {
				return err
			}
			defer db.Close()
			enc := json.NewEncoder(e.stdout)
			enc.SetEscapeHTML(false)
			return db.Export(func(d *medkb.Doc) error { return enc.Encode(d) })
		},
	}, "")
}
