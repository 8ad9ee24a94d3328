package rrce

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteTable prints the report as a text table: RRCE in percent, one row
// per strategy, one column per window, then the ratio and the ablation.
func (r *Report) WriteTable(w io.Writer) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "RRCE %% over %d cases (%d T1/T2 signal segments, %d candidates)\n", r.Cases, r.Signals, r.Candidates)
	fmt.Fprintf(&sb, "%-10s", "strategy")
	for _, win := range r.Windows {
		fmt.Fprintf(&sb, " %7d", win)
	}
	sb.WriteString("\n")
	for _, st := range r.Strategies {
		fmt.Fprintf(&sb, "%-10s", st)
		for _, win := range r.Windows {
			fmt.Fprintf(&sb, " %7.1f", 100*r.RRCE[st][strconv.Itoa(win)])
		}
		sb.WriteString("\n")
	}
	fmt.Fprintf(&sb, "ebm/exact utility ratio: %.4f over %d (case, window) pairs; exact refused %d\n",
		r.UtilityRatioVsExact, r.RatioPairs, r.ExactSkipped)
	sb.WriteString("kmin ablation (ebm):")
	for _, k := range r.KminValues {
		fmt.Fprintf(&sb, " kmin=%d %.1f", k, 100*r.KminAblation[strconv.Itoa(k)])
	}
	sb.WriteString("\n")
	_, err := io.WriteString(w, sb.String())
	return err
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
