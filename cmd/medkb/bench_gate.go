package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb/internal/bench/gatebench"
)

func benchGateCmd(e *env) *cobra.Command {
	var medqa, pubmedqa string
	c := &cobra.Command{
		Use:   "gate --medqa F.jsonl [--pubmedqa ori_pqal.json]",
		Short: "the completeness gate on MedQA vignettes (masking, calibration) and PubMedQA (decisions)",
		Long: `Labels every sentence A, B or C by the gate's rules and scores each input
(docs/gate.md). Masking removes 0 to 5 sentences of each MedQA vignette in a
seeded random order and prints the mean score at each step; calibration
chooses theta1 and theta2 on the even-numbered vignettes and checks them on
the odd ones; the decisions of the default thresholds are counted on the
odd vignettes and, with --pubmedqa, on PubMedQA questions alone and with
their abstracts.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if medqa == "" {
				return fmt.Errorf("--medqa is required")
			}
			vignettes, err := gatebench.MedQA(medqa, 0)
			if err != nil {
				return err
			}
			var q, qc []string
			if pubmedqa != "" {
				if q, qc, err = gatebench.PubMedQA(pubmedqa); err != nil {
					return err
				}
			}
			gatebench.Run(vignettes, q, qc).Write(e.stdout)
			return nil
		},
	}
	c.Flags().StringVar(&medqa, "medqa", "", "MedQA JSON Lines (the question field is the vignette)")
	c.Flags().StringVar(&pubmedqa, "pubmedqa", "", "PubMedQA ori_pqal.json")
	return c
}
