package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
)

func queryCmd(e *env) *cobra.Command {
	var asJSON bool
	var timeout time.Duration
	var paramFlags []string
	c := &cobra.Command{
		Use:   "query [--json] [--timeout D] [--param NAME=VALUE]... QUERY|-",
		Short: "run one RETRIEVE statement (\"-\" reads it from stdin)",
		Long: `Query runs one statement of the query language, for example

  medkb query 'RETRIEVE "chest pain, troponin 2.3 ng/mL" FUSE rrf PACK budget 512 kmin 1'

Human-readable output by default; --json prints the result struct
(query, plan, items with provenance, dropped, budget, tokens_used,
context, expansion). EXPLAIN prints the plan; EXPLAIN ANALYZE runs it
and adds rows and time per operator.

A statement may hold named parameters, $NAME, where a string or a
number goes; --param NAME=VALUE (repeatable) gives each its value,
which is bound after parsing and never becomes statement text:

  medkb query --param q="chest pain" --param p=A100 'RETRIEVE $q WHERE patient = $p PACK budget 256'`,
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
			params, err := parseParams(paramFlags)
			if err != nil {
				return err
			}
			db, err := e.connect(true)
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
			res, err := db.QueryParams(ctx, src, params)
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
	c.Flags().StringArrayVar(&paramFlags, "param", nil, "NAME=VALUE: the value of $NAME in the statement (repeatable)")
	return e.routedStoreFlags(c, "")
}

// parseParams reads --param NAME=VALUE flags. Every value is a string; a
// string that spells a number binds where the statement wants a number.
// The statement's binding checks the names.
func parseParams(flags []string) (medkb.Params, error) {
	if len(flags) == 0 {
		return nil, nil
	}
	params := medkb.Params{}
	for _, f := range flags {
		name, value, ok := strings.Cut(f, "=")
		if !ok {
			return nil, fmt.Errorf("--param %q: want NAME=VALUE", f)
		}
		if _, dup := params[name]; dup {
			return nil, fmt.Errorf("--param %s is given twice", name)
		}
		params[name] = value
	}
	return params, nil
}
