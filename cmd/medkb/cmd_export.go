package main

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
)

func exportCmd(e *env) *cobra.Command {
	return e.storeFlags(&cobra.Command{
		Use:   "export",
		Short: "print every document as JSON Lines, with its resolved tier and type",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := e.open(true)
			if err != nil {
				return err
			}
			defer db.Close()
			enc := json.NewEncoder(e.stdout)
			enc.SetEscapeHTML(false)
			return db.Export(func(d *medkb.Doc) error { return enc.Encode(d) })
		},
	})
}
