package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

func queryCmd(e *env) *cobra.Command {
	var asJSON bool
	var timeout time.Duration
	c := &cobra.Command{
		Use:   "query [--json] [--timeout D] QUERY|-",
		Short: "run one RETRIEVE statement (\"-\" reads it from stdin)",
		Long: `Query runs one statement of the query language, for example

  medkb query 'RETRIEVE "chest pain, troponin 2.3 ng/mL" FUSE rrf PACK budget 512 kmin 1'

Human-readable output by default; --json prints the result struct
(query, plan, items with provenance, dropped, budget, tokens_used,
context, expansion). EXPLAIN prints the plan; EXPLAIN ANALYZE runs it
and adds rows and time per operator.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src := args[0]
			if src == "-" {
				b, err := io.ReadAll(io.LimitReader(e.stdin, 1<<20))
				if err != nil {
					return err
				}
				src = string(b)
			}
			if strings.TrimSpace(src) == "" {
				return fmt.Errorf("empty query")
			}
			db, err := e.open(true)
			if err != nil {
				return err
			}
			defer db.Close()
			ctx := cmd.Context()
			if timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, timeout)
				defer cancel()
			}
			res, err := db.Query(ctx, src)
			if err != nil {
				return err
			}
			if asJSON {
				return e.writeJSON(res)
			}
			render(e.stdout, res)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	c.Flags().DurationVar(&timeout, "timeout", 30*time.Second, "give up after this long (0: never)")
	return e.storeFlags(c)
}
