package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb/internal/bench/packbench"
	"github.com/medkb/medkb/internal/evidence"
)

func benchEvidenceCmd(e *env) *cobra.Command {
	var questions, pubmedqa, windows, strategies, now string
	var corpora, cases []string
	var n int
	var untyped, duplicates, asJSON bool
	var reliab float64
	c := &cobra.Command{
		Use:   "evidence (--questions F [--corpus F]... [--cases F]... | --pubmedqa F [--n N]) [--windows 64,128,256,512] [--strategies ebm,...] [--untyped] [--now DATE] [--json]",
		Short: "evidence recall of every packing strategy against oracles, for questions that name their evidence",
		Long: `Ingests the corpus into a temporary store and runs, for each question,
window and strategy,
  RETRIEVE "<question>" [WHERE patient = "..."] PACK budget W strategy S
through the public API. A question's recall is the share of its evidence
items that the packed items recall; the table gives the mean over
questions in percent, overall and by kind and language when mixed, beside
two oracles that know the evidence and pack its documents whole ("whole
text"; "state B" compresses a chunk where state B keeps its quotes) and
"fits", the share of questions whose evidence documents all fit at once.

Questions, JSON Lines, one a line:
  {"id": "sample-p001-trop", "question": "What was his troponin?", "patient": "P001",
   "kind": "targeted", "evidence": [{"doc": "P001-lab-06", "quote": "2.3 ng/mL"}, {"doc": "P001-ecg-05"}]}
"patient" is optional; "kind" is targeted or generic. An evidence item is
recalled by a packed item of its document whose text holds the quote,
compared without white space, with full-width forms folded and in lower
case; without a quote, by any packed item of the document. Errors name
file:line: bad JSON, a missing id, question or evidence, an unknown kind
or field, a document not in the corpus or of another patient, a quote
not in its document.

The corpus: --corpus medkb JSON Lines documents, --cases RRCE case files
(each segment a document: its id, text, type and time, the case's id as
patient; not its gold tier). --untyped drops every type and tier so the
text rules decide. --pubmedqa (ori_pqal.json) instead makes every
context sentence a document "PMID/s<k>" (all 1,000 abstracts: the
others are the haystack) and derives each question's evidence from the
authors' conclusion, which is not ingested: greedily, the sentences of
its abstract that bring the most conclusion terms beyond the question's
(at least 3 new, and 20 % of the sentence's own terms; at most 3), each
quoted whole (see internal/evidence). --n takes n questions evenly
spaced in PMID order (0: all 702 with evidence).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg := evidence.DefaultConfig()
			var err error
			if cfg.Windows, err = parseInts(windows); err == nil {
				cfg.Windows, err = packbench.SortWindows(cfg.Windows)
			}
			if err != nil {
				return fmt.Errorf("--windows: %w", err)
			}
			cfg.Strategies, cfg.Now = strings.Split(strings.ReplaceAll(strategies, " ", ""), ","), now
			if reliab < 0 || reliab > 1 {
				return fmt.Errorf("--reliability %g: want a weight in [0, 1]", reliab)
			}
			cfg.Reliability = reliab
			var set *evidence.Set
			var stats *evidence.PubMedQAStats
			switch {
			case pubmedqa != "" && (questions != "" || len(corpora) > 0 || len(cases) > 0):
				return fmt.Errorf("give --pubmedqa, or --questions with --corpus and --cases, not both")
			case pubmedqa == "" && cmd.Flags().Changed("n"):
				return fmt.Errorf("--n needs --pubmedqa: a question file is used whole")
			case n < 0:
				return fmt.Errorf("--n %d: want a sample size, or 0 for every question", n)
			case pubmedqa != "":
				set, stats, err = evidence.PubMedQA(pubmedqa, n)
			case questions != "":
				set, err = evidenceSet(questions, corpora, cases)
			default:
				return fmt.Errorf("--questions FILE or --pubmedqa FILE is required")
			}
			if err != nil {
				return err
			}
			if untyped {
				evidence.Untyped(set.Docs)
			}
			if duplicates {
				evidence.AddDuplicates(set, duplicateSeed)
			}
			rep, err := evidence.Run(cmd.Context(), set, cfg)
			if err != nil {
				return err
			}
			for _, w := range rep.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "medkb: warning:", w)
			}
			if asJSON {
				return e.writeJSON(struct {
					PubMedQA *evidence.PubMedQAStats `json:"pubmedqa,omitempty"`
					*evidence.Report
				}{stats, rep})
			}
			if stats != nil {
				by := make([]string, len(stats.ByEvidence))
				for k, v := range stats.ByEvidence {
					by[k] = fmt.Sprintf("%d: %d", k, v)
				}
				fmt.Fprintf(e.stdout, "PubMedQA: %d abstracts, %d sentences; abstracts by evidence sentences derived: %s; %d questions asked\n\n",
					stats.Abstracts, stats.Sentences, strings.Join(by, ", "), stats.Sampled)
			}
			if err := rep.WriteTable(e.stdout); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "\ningest %.1f s, %d queries %.1f s\n", rep.IngestSeconds, rep.Queries, rep.QuerySeconds)
			return nil
		},
	}
	c.Flags().StringVar(&questions, "questions", "", "questions, JSON Lines {id, question, patient?, kind, evidence: [{doc, quote?}]}")
	c.Flags().StringArrayVar(&corpora, "corpus", nil, "documents, medkb JSON Lines (repeatable)")
	c.Flags().StringArrayVar(&cases, "cases", nil, "RRCE case files whose segments become documents (repeatable)")
	c.Flags().StringVar(&pubmedqa, "pubmedqa", "", "PubMedQA ori_pqal.json to convert instead (e.g. ../shared/data/pubmedqa/ori_pqal.json)")
	c.Flags().IntVar(&n, "n", 200, "PubMedQA questions in the fixed sample; 0 takes all")
	c.Flags().StringVar(&windows, "windows", "64,128,256,512", "token windows, comma-separated")
	c.Flags().StringVar(&strategies, "strategies", strings.Join(evidence.DefaultConfig().Strategies, ","), "packing strategies, comma-separated")
	c.Flags().Float64Var(&reliab, "reliability", 0, "PACK ... reliability W: weigh utility by evidence reliability (0 = off)")
	c.Flags().BoolVar(&duplicates, "duplicates", false, "inject 1-3 copy-forward copies of each question's evidence documents (a packed copy recalls its original)")
	c.Flags().BoolVar(&untyped, "untyped", false, "drop every document's type and tier: the text rules decide")
	c.Flags().StringVar(&now, "now", "", `reference day of time decay, PACK ... now "DATE" (default: today, as a query without it)`)
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON, with each question's recall")
	return c
}

// evidenceSet reads a question file and its corpus.
func evidenceSet(questions string, corpora, cases []string) (*evidence.Set, error) {
	qs, err := evidence.ReadQuestionsFile(questions)
	if err != nil {
		return nil, err
	}
	set := &evidence.Set{Questions: qs}
	for _, path := range corpora {
		res, err := readDocs(path)
		if err == nil {
			err = res.Err()
		}
		if err != nil {
			return nil, err
		}
		set.Docs = append(set.Docs, res.Docs...)
	}
	for _, path := range cases {
		cs, _, err := packbench.ReadCasesFile(path) // its warnings are about RRCE's keys, which this bench does not use
		if err != nil {
			return nil, err
		}
		set.Docs = append(set.Docs, evidence.CaseDocs(cs)...)
	}
	if len(set.Docs) == 0 {
		return nil, fmt.Errorf("no document: give --corpus or --cases")
	}
	return set, nil
}

// duplicateSeed fixes which evidence --duplicates copies.
const duplicateSeed = 1
