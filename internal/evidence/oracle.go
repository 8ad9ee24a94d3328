package evidence

import (
	"fmt"
	"strings"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/text"
	"github.com/medkb/medkb/planner"
)

// oracleDoc is one of a question's evidence documents as the oracles
// pack it: whole, every chunk on its own context line.
type oracleDoc struct {
	items int // the question's evidence items on it that its chunks can recall
	whole int // tokens with every chunk in full text
	withB int // tokens with a chunk in state B where B keeps the quotes its full text holds (and costs less)
}

// oracleDocs prices the documents q's evidence names (views holds them,
// as medkb.DB.Show returns them). Each chunk is costed as the planner
// costs a packed line (planner.LineTokens), numbered as the last of all
// the chunks of these documents: no packing of them numbers a line
// higher, and below ten chunks the count is exact. It also returns a
// warning for each evidence item that no chunk can recall: a quote that
// its document holds only across a chunk boundary.
func oracleDocs(q *Question, views map[string]*medkb.DocView, count func(string) int) ([]oracleDoc, []string, error) {
	var order []string
	quotes := map[string][]string{} // document -> its items' folded quotes ("" for none)
	for _, it := range q.Evidence {
		if _, ok := quotes[it.Doc]; !ok {
			order = append(order, it.Doc)
		}
		quotes[it.Doc] = append(quotes[it.Doc], text.FoldKey(it.Quote))
	}
	rank := 0
	for _, id := range order {
		rank += len(views[id].Chunks)
	}
	var warnings []string
	out := make([]oracleDoc, 0, len(order))
	for _, id := range order {
		v := views[id]
		day, err := base.ParseDay(v.Time)
		if err != nil {
			return nil, nil, fmt.Errorf("document %s: %w", id, err)
		}
		var d oracleDoc
		held := make([]bool, len(quotes[id])) // a chunk's full text holds the quote
		for _, c := range v.Chunks {
			a := text.FoldKey(c.Text)
			keepsB := c.TextB != ""
			b := text.FoldKey(c.TextB)
			for i, qt := range quotes[id] {
				if qt == "" || !strings.Contains(a, qt) {
					continue
				}
				held[i] = true
				keepsB = keepsB && strings.Contains(b, qt)
			}
			costA := planner.LineTokens(count, rank, c.Tier, day, "A", c.Text)
			costB := costA
			if keepsB {
				costB = min(costA, planner.LineTokens(count, rank, c.Tier, day, "B", c.TextB))
			}
			d.whole += costA
			d.withB += costB
		}
		for i, h := range held {
			switch {
			case h || quotes[id][i] == "" && len(v.Chunks) > 0:
				d.items++
			default:
				warnings = append(warnings, fmt.Sprintf("%s: question %q: a quote of %s lies across its chunks; no packed item can hold it", q.Pos, q.ID, id))
			}
		}
		out = append(out, d)
	}
	return out, warnings, nil
}

// mostItems is the exact optimum of a 0/1 knapsack: the most evidence
// items that whole documents, each costing cost(d) tokens, bring within
// budget.
func mostItems(docs []oracleDoc, cost func(oracleDoc) int, budget int) int {
	best := make([]int, budget+1) // best[c]: the most items within c tokens
	for _, d := range docs {
		w := cost(d)
		for c := budget; c >= w; c-- {
			best[c] = max(best[c], best[c-w]+d.items)
		}
	}
	return best[budget]
}

// allFit reports whether every document fits whole within budget at once.
func allFit(docs []oracleDoc, budget int) bool {
	total := 0
	for _, d := range docs {
		total += d.whole
	}
	return total <= budget
}
