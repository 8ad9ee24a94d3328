package main

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/internal/bench/packbench"
	"github.com/medkb/medkb/internal/hook"
	"github.com/medkb/medkb/planner/pack"
)

// caseFlags select the cases of bench pack and tune: a case file, or a
// fixed sample of MedQA vignettes.
type caseFlags struct {
	cases      string
	medqa      string
	n          int
	seed       int64
	noise      int
	goldTiers  bool
	validation bool
	question   bool
	record     bool
	duplicates bool
	dedup      bool
	embed      embedFlags
}

func (f *caseFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.cases, "cases", "", "cases, JSON Lines {id, query, now?, segments: [{id, text, type?, tier?, time?, signal?, keys?}], question?, options?, answer?}; a case that marks no segment signal counts them all; question, options ({\"A\": ...}) and answer (a letter) are for --llm")
	c.Flags().StringVar(&f.medqa, "medqa", "", "MedQA JSON Lines, USMLE or Chinese MCMLE layout, to turn into cases instead (e.g. ../shared/data/medqa/medqa_test.jsonl)")
	c.Flags().IntVar(&f.n, "n", 200, "MedQA vignettes in the fixed sample; 0 takes every eligible one")
	c.Flags().Int64Var(&f.seed, "seed", 1, "seed of the MedQA sample and of the noise")
	c.Flags().IntVar(&f.noise, "noise", packbench.DefaultNoiseRatio, "noise segments per signal segment (1:N)")
	c.Flags().BoolVar(&f.goldTiers, "gold-tiers", false, "pack with the cases' given tiers instead of medkb's classifier")
	c.Flags().BoolVar(&f.validation, "validation", false, "with --medqa: the n vignettes after the sample instead, disjoint from it (for tuning)")
	c.Flags().BoolVar(&f.question, "question-only", false, "with --medqa: query with the final question and the options, not the whole vignette")
	c.Flags().BoolVar(&f.record, "record-in-query", false, "with --cases: put each case's segments before its query, as a MedQA question carries its vignette")
	c.Flags().BoolVar(&f.duplicates, "duplicates", false, "add 1 to 3 copy-forward copies of signal segments to each case, after the noise")
	c.Flags().BoolVar(&f.dedup, "dedup", false, "drop near-duplicates before packing, as a query's Dedup does")
	f.embed.register(c, embed.NewHash(0).Name(), "what computes Sim")
}

// suite reads the cases and prepares their candidates.
func (f *caseFlags) suite(cmd *cobra.Command) (*packbench.Suite, error) {
	var cases []packbench.Case
	var warnings []string
	var err error
	switch {
	case f.cases != "" && f.medqa != "":
		return nil, fmt.Errorf("give --cases or --medqa, not both")
	case (f.validation || f.question) && f.medqa == "":
		return nil, fmt.Errorf("--validation and --question-only need --medqa")
	case f.record && f.cases == "":
		return nil, fmt.Errorf("--record-in-query needs --cases")
	case f.cases != "" && cmd.Flags().Changed("n"):
		return nil, fmt.Errorf("--n needs --medqa: a case file is used whole")
	case f.n < 0:
		return nil, fmt.Errorf("--n %d: want a sample size, or 0 for every eligible vignette", f.n)
	case f.noise < 0:
		return nil, fmt.Errorf("--noise %d: want noise segments per signal segment, 0 or more", f.noise)
	case f.cases != "":
		cases, warnings, err = packbench.ReadCasesFile(f.cases)
	case f.medqa != "":
		cases, warnings, err = packbench.MedQACases(f.medqa, packbench.MedQASample{N: f.n, Seed: f.seed, Validation: f.validation, QuestionOnly: f.question})
	default:
		return nil, fmt.Errorf("--cases FILE or --medqa FILE is required")
	}
	for _, w := range warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "medkb: warning:", w)
	}
	if err != nil {
		return nil, err
	}
	emb, err := f.embed.embedder()
	if err != nil {
		return nil, err
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("%s holds no case", cmp.Or(f.cases, f.medqa))
	}
	if f.record {
		cases = packbench.WithRecordInQuery(cases)
	}
	opt := packbench.DefaultOptions()
	opt.NoiseRatio, opt.Seed, opt.GoldTiers, opt.Embedder = f.noise, f.seed, f.goldTiers, emb
	opt.Duplicates, opt.Dedup = f.duplicates, f.dedup
	return packbench.Prepare(cmd.Context(), cases, opt)
}

func benchPackCmd(e *env) *cobra.Command {
	var cf caseFlags
	var windows, svg string
	var asJSON bool
	var floor float64
	var losses int
	var llm answerFlags
	c := &cobra.Command{
		Use:   "pack (--cases F.jsonl [--record-in-query] | --medqa F [--validation] [--question-only]) [--noise 12] [--windows 256,512,1024,2048] [--floor 0.5] [--gold-tiers] [--losses W] [--svg FILE] [--llm openai:MODEL [--llm-url URL]] [--export-prompts DIR] [--json]",
		Short: "RRCE of EBM-Pack, the exact optimum and the paper's baselines at several windows",
		Long: `Adds noise to every case at 1:N (40% templated boilerplate in the case's
language, 30% fragments of other cases, 30% splices of two), shuffles with a
fixed seed, packs with every strategy at every window and reports RRCE: the
share of T1/T2 signal segments whose key entities all survive packing. Also
the greedy's utility against the exact optimum and a kmin ablation at 512.

With --llm openai:MODEL, also answer accuracy: each case's question (MedQA,
or a case's "question", "options" and "answer") is asked of an
OpenAI-compatible chat server (--llm-url, key from $MEDKB_LLM_API_KEY or
$OPENAI_API_KEY) after the context each strategy but exact packed at each
window, and after the case's full record; it reports accuracy and APR
(accuracy / full-record accuracy). --export-prompts DIR writes the same
prompts to DIR/prompts.jsonl, with the correct letters, to run elsewhere.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !(floor >= 0 && floor <= 1) {
				return fmt.Errorf("--floor %v must be in [0, 1]", floor)
			}
			if losses < 0 {
				return fmt.Errorf("--losses %d must be a window of at least 1 token, or 0 for none", losses)
			}
			cfg := packbench.DefaultConfig()
			cfg.Params.SimFloor = floor
			var err error
			if cfg.Windows, err = parseInts(windows); err == nil {
				cfg.Windows, err = packbench.SortWindows(cfg.Windows)
			}
			if err != nil {
				return fmt.Errorf("--windows: %w", err)
			}
			if err := llm.check(); err != nil {
				return err
			}
			s, err := cf.suite(cmd)
			if err != nil {
				return err
			}
			rep, err := s.Run(cfg)
			if err != nil {
				return err
			}
			if rep.Answers, err = llm.run(cmd.Context(), s, cfg, cmd.ErrOrStderr()); err != nil {
				return err
			}
			if losses > 0 {
				p := cfg.Params
				p.Budget, p.Strategy = losses, pack.Ebm
				if rep.Losses, err = s.Losses(p); err != nil {
					return err
				}
			}
			if svg != "" {
				f, err := os.Create(svg)
				if err != nil {
					return err
				}
				if err := rep.WriteSVG(f); err != nil {
					f.Close()
					return err
				}
				if err := f.Close(); err != nil {
					return err
				}
			}
			if asJSON {
				return e.writeJSON(rep)
			}
			if err := rep.WriteTable(e.stdout); err != nil {
				return err
			}
			if rep.Losses != nil {
				if err := rep.Losses.WriteTable(e.stdout); err != nil {
					return err
				}
			}
			if rep.Answers != nil {
				fmt.Fprintln(e.stdout)
				return rep.Answers.WriteTable(e.stdout)
			}
			return nil
		},
	}
	cf.register(c)
	llm.register(c)
	c.Flags().StringVar(&windows, "windows", "256,512,1024,2048", "token windows, comma-separated")
	c.Flags().StringVar(&svg, "svg", "", "also draw RRCE against window as an SVG file")
	c.Flags().IntVar(&losses, "losses", 0, "also list the T1/T2 signal segments EBM-Pack loses at this window, and how")
	c.Flags().Float64Var(&floor, "floor", pack.DefaultSimFloor,
		fmt.Sprintf("similarity floor in [0, 1]: Sim = (1 - floor) * cosine + floor * tokens / %d", pack.FloorTokens))
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

// answerFlags configure bench pack's answer-accuracy harness.
type answerFlags struct {
	llm, url, export string
	workers          int
	timeout          time.Duration
}

func (f *answerFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.llm, "llm", "", "also measure answer accuracy with this model, as openai:MODEL (any OpenAI-compatible chat server)")
	c.Flags().StringVar(&f.url, "llm-url", "https://api.openai.com/v1", "the chat server's root; /chat/completions is appended (Ollama: http://localhost:11434/v1)")
	c.Flags().IntVar(&f.workers, "llm-workers", 4, "requests in flight at once")
	c.Flags().DurationVar(&f.timeout, "llm-timeout", 2*time.Minute, "bound on one request")
	c.Flags().StringVar(&f.export, "export-prompts", "", "write the answer prompts to DIR/prompts.jsonl (with or without --llm)")
}

// check says what is wrong with the flags.
func (f *answerFlags) check() error {
	switch {
	case f.llm == "":
		return nil
	case !strings.HasPrefix(f.llm, "openai:") || f.llm == "openai:":
		return fmt.Errorf("--llm %q: want openai:MODEL (an OpenAI-compatible chat server at --llm-url)", f.llm)
	case f.workers < 1:
		return fmt.Errorf("--llm-workers %d: want at least 1", f.workers)
	case f.timeout <= 0:
		return fmt.Errorf("--llm-timeout %v: want a positive duration", f.timeout)
	}
	return nil
}

// run writes the prompts when asked and measures answer accuracy when a
// model is named; nil when neither.
func (f *answerFlags) run(ctx context.Context, s *packbench.Suite, cfg packbench.Config, log io.Writer) (*packbench.AnswerReport, error) {
	if f.llm == "" && f.export == "" {
		return nil, nil
	}
	cfg.Strategies = nil
	prompts, err := s.Prompts(cfg)
	if err != nil {
		return nil, err
	}
	if f.export != "" {
		if err := writePrompts(f.export, prompts); err != nil {
			return nil, err
		}
		fmt.Fprintf(log, "medkb: wrote %d prompts to %s\n", len(prompts), filepath.Join(f.export, "prompts.jsonl"))
	}
	if f.llm == "" {
		return nil, nil
	}
	ep := hook.Endpoint{What: "answer", URL: hook.Join(f.url, "/chat/completions"), Timeout: f.timeout,
		APIKey: cmp.Or(os.Getenv("MEDKB_LLM_API_KEY"), os.Getenv("OPENAI_API_KEY"))}
	return packbench.Answer(ctx, prompts, packbench.ChatAsker(ep, strings.TrimPrefix(f.llm, "openai:")), f.workers)
}

// writePrompts writes DIR/prompts.jsonl, making DIR when it is missing.
func writePrompts(dir string, prompts []packbench.Prompt) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--export-prompts: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, "prompts.jsonl"))
	if err != nil {
		return fmt.Errorf("--export-prompts: %w", err)
	}
	w := bufio.NewWriter(f)
	err = packbench.WritePrompts(w, prompts)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--export-prompts: %w", err)
	}
	return nil
}

func tuneCmd(e *env) *cobra.Command {
	var cf caseFlags
	var window int
	c := &cobra.Command{
		Use:   "tune (--cases F.jsonl | --medqa F [--validation]) [--window 512]",
		Short: "grid-search EBM-Pack's tier weights, lambda, epsilon and similarity floor by RRCE",
		Long: `The paper's grid: alpha in {1.5, 2, 2.5, 3}, beta in {1.2, 1.5, 2, 2.5}, gamma in
{1, 1.2, 1.5} with alpha >= beta >= gamma >= 1 (35 combinations), then lambda
in {0, 0.1, 0.5, 1, 2, 5} and epsilon in {0, 0.02, 0.05, 0.1, 0.2}, then
medkb's similarity floor in {0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9}; each stage
starts from the best of the one before, which stays best unless a row beats
it (the default lambda, 0.02, is not on the paper's grid). Prints the best by
RRCE at the window (ties by the retention of all signal segments) and the
whole table. Tune on --validation and measure with bench pack on the sample
itself.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if window < 1 {
				return fmt.Errorf("--window must be at least 1")
			}
			s, err := cf.suite(cmd)
			if err != nil {
				return err
			}
			res, err := s.Tune(window, pack.DefaultParams())
			if err != nil {
				return err
			}
			b := res.Best
			fmt.Fprintf(e.stdout, "best at %d tokens: weights (%g, %g, %g, 1) lambda %g epsilon %g floor %g: RRCE %.1f%%\n\n",
				window, b.Alpha, b.Beta, b.Gamma, b.Lambda, b.Epsilon, b.SimFloor, 100*b.RRCE)
			return res.WriteTable(e.stdout)
		},
	}
	cf.register(c)
	c.Flags().IntVar(&window, "window", 512, "token window to tune at")
	return c
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, n)
	}
	return out, nil
}
