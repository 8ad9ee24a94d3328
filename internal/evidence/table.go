package evidence

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/medkb/medkb/internal/bench/packbench"
)

// groups averages the questions' results: all of them, then each kind
// and each language when there is more than one.
func groups(qs []QuestionResult, cfg Config) []Group {
	out := []Group{group("all", qs, cfg)}
	for _, split := range []struct {
		values []string
		of     func(QuestionResult) string
	}{
		{[]string{Targeted, Generic}, func(q QuestionResult) string { return q.Kind }},
		{[]string{"en", "zh"}, func(q QuestionResult) string { return q.Lang }},
	} {
		var parts []Group
		for _, v := range split.values {
			var sub []QuestionResult
			for _, q := range qs {
				if split.of(q) == v {
					sub = append(sub, q)
				}
			}
			if len(sub) > 0 {
				parts = append(parts, group(v, sub, cfg))
			}
		}
		if len(parts) > 1 {
			out = append(out, parts...)
		}
	}
	return out
}

func group(name string, qs []QuestionResult, cfg Config) Group {
	g := Group{Name: name, Questions: len(qs), Recall: map[string]map[string]float64{}, Fits: map[string]float64{}}
	for _, q := range qs {
		g.EvidenceItems += q.Evidence
	}
	for _, row := range rows(cfg.Strategies) {
		g.Recall[row] = map[string]float64{}
		for _, w := range cfg.Windows {
			win := strconv.Itoa(w)
			sum, n := 0.0, 0
			for _, q := range qs {
				if r, ok := q.Recall[row][win]; ok {
					sum += r
					n++
				}
			}
			if n > 0 {
				g.Recall[row][win] = sum / float64(n)
			}
		}
	}
	for _, w := range cfg.Windows {
		win := strconv.Itoa(w)
		fit := 0
		for _, q := range qs {
			if q.Fits[win] {
				fit++
			}
		}
		g.Fits[win] = float64(fit) / float64(len(qs))
	}
	return g
}

// rows are the strategies and the oracles, in table order.
func rows(strategies []string) []string {
	return append(slices.Clone(strategies), OracleWhole, OracleB)
}

// rowLabels name the oracle rows in the table.
var rowLabels = map[string]string{OracleWhole: "oracle (whole text)", OracleB: "oracle (state B)"}

// WriteTable prints the report: the machine-independent counts, then
// for each group evidence recall in percent, one row per strategy and
// oracle, one column per window ("n/a" where every question was
// refused), and the fits row. Timings are not printed: the table is the
// same on every machine.
func (r *Report) WriteTable(w io.Writer) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "evidence recall %% over %d questions (%d evidence items; %d documents, %d chunks)\n",
		r.Questions, r.EvidenceItems, r.Documents, r.Chunks)
	for _, g := range r.Groups {
		fmt.Fprintf(&sb, "\n%s: %d questions, %d evidence items\n", g.Name, g.Questions, g.EvidenceItems)
		fmt.Fprintf(&sb, "%-20s", "strategy")
		for _, win := range r.Windows {
			fmt.Fprintf(&sb, " %7d", win)
		}
		sb.WriteString("\n")
		for _, row := range rows(r.Strategies) {
			label := row
			if l, ok := rowLabels[row]; ok {
				label = l
			}
			fmt.Fprintf(&sb, "%-20s", label)
			for _, win := range r.Windows {
				sb.WriteString(packbench.PercentCell(g.Recall[row], strconv.Itoa(win)))
			}
			sb.WriteString("\n")
		}
		fmt.Fprintf(&sb, "%-20s", "fits (whole text)")
		for _, win := range r.Windows {
			sb.WriteString(packbench.PercentCell(g.Fits, strconv.Itoa(win)))
		}
		sb.WriteString("\n")
	}
	for _, s := range r.Strategies {
		for _, win := range r.Windows {
			if n := r.Refused[s][strconv.Itoa(win)]; n > 0 {
				fmt.Fprintf(&sb, "%s refused %d of %d questions at %d tokens (too large to solve exactly); its recall there leaves them out\n", s, n, r.Questions, win)
			}
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}
