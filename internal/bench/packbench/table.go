package packbench

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteTable prints the report as a text table: RRCE in percent, one row
// per strategy, one column per window ("n/a" where nothing was counted),
// then the ratio, Exact's refusals and the ablation.
func (r *Report) WriteTable(w io.Writer) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "RRCE %% over %s (%d T1/T2 signal segments, %d candidates)\n", counted(r.Cases, "case"), r.Signals, r.Candidates)
	if r.Signals == 0 {
		sb.WriteString("no signal segment is T1/T2: RRCE has nothing to count\n")
	}
	fmt.Fprintf(&sb, "%-10s", "strategy")
	for _, win := range r.Windows {
		fmt.Fprintf(&sb, " %7d", win)
	}
	sb.WriteString("\n")
	for _, st := range r.Strategies {
		fmt.Fprintf(&sb, "%-10s", st)
		for _, win := range r.Windows {
			sb.WriteString(PercentCell(r.RRCE[st], strconv.Itoa(win)))
		}
		sb.WriteString("\n")
	}
	if r.UtilityRatioVsExact != nil {
		fmt.Fprintf(&sb, "ebm/exact utility ratio: %.4f over %d (case, window) pairs", *r.UtilityRatioVsExact, r.RatioPairs)
		if r.PaperUtilityRatioVsExact != nil {
			fmt.Fprintf(&sb, "; paper/exact %.4f", *r.PaperUtilityRatioVsExact)
		}
		sb.WriteString("\n")
	} else {
		sb.WriteString("ebm/exact utility ratio: n/a (exact solved no case at any window)\n")
	}
	for _, win := range r.Windows {
		if n := r.ExactRefused[strconv.Itoa(win)]; n > 0 {
			fmt.Fprintf(&sb, "exact refused %d of %d at %d tokens (too large to solve quickly); its RRCE there leaves them out\n",
				n, r.Cases, win)
		}
	}
	fmt.Fprintf(&sb, "kmin ablation (ebm at %d tokens):", r.AblationWindow)
	for _, k := range r.KminValues {
		fmt.Fprintf(&sb, " kmin=%d %s", k, strings.TrimSpace(PercentCell(r.KminAblation, strconv.Itoa(k))))
	}
	sb.WriteString("\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

// PercentCell formats row[key] as a percentage in a column of 8, or "n/a"
// when the report has no value there. Other benchmark tables use it too.
func PercentCell(row map[string]float64, key string) string {
	v, ok := row[key]
	if !ok {
		return fmt.Sprintf(" %7s", "n/a")
	}
	return fmt.Sprintf(" %7.1f", 100*v)
}

// counted is "1 case" or "n cases".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// WriteTable prints the tuning grid, one row per point, best marked.
func (t *TuneResult) WriteTable(w io.Writer) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "tuning at window %d: RRCE %% and all-signal retention %%\n", t.Window)
	fmt.Fprintf(&sb, "%5s %5s %5s %6s %7s %5s %7s %9s\n", "alpha", "beta", "gamma", "lambda", "epsilon", "floor", "rrce", "retention")
	for _, rows := range [][]TuneRow{t.Weights, t.Decay, t.Floor} {
		for _, row := range rows {
			mark := ""
			if row == t.Best {
				mark = " *"
			}
			fmt.Fprintf(&sb, "%5.1f %5.1f %5.1f %6.2f %7.2f %5.2f %7.1f %9.1f%s\n",
				row.Alpha, row.Beta, row.Gamma, row.Lambda, row.Epsilon, row.SimFloor, 100*row.RRCE, 100*row.Retention, mark)
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}
