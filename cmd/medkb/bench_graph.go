package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb/internal/bench/graphbench"
)

func benchGraphCmd(e *env) *cobra.Command {
	var dir string
	var opts graphbench.Options
	var asJSON bool
	c := &cobra.Command{
		Use:   "graph --hetionet DIR [--json]",
		Short: "Hetionet load time, 2-step metapath expansion latency and a held-out edge recovery test",
		Long: `Loads the Hetionet node and edge TSVs under DIR (for example
../shared/data/hetionet), builds the adjacency, times CbGaD expansion
(Compound -binds-> Gene <-associates- Disease) from random anchors with
LIMIT 50, and holds out a share of the Compound-treats-Disease edges to
report how often CbGaD or CrCtD paths from the compound reach them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir == "" {
				return fmt.Errorf("--hetionet DIR is required")
			}
			ctx := cmd.Context()
			r, err := graphbench.Run(ctx, dir, opts)
			if err != nil {
				return err
			}
			if asJSON {
				return e.writeJSON(r)
			}
			fmt.Fprintln(e.stdout, r.String())
			return nil
		},
	}
	c.Flags().StringVar(&dir, "hetionet", "", "directory with Hetionet node and edge TSVs")
	c.Flags().IntVar(&opts.Anchors, "anchors", 100, "random anchors for the latency test")
	c.Flags().IntVar(&opts.Limit, "limit", 50, "LIMIT of the latency and recovery tests")
	c.Flags().Float64Var(&opts.HoldOut, "hold-out", 0.2, "share of treats edges held out for recovery")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}
