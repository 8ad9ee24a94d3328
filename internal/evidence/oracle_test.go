package evidence

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/text"
	"github.com/medkb/medkb/planner"
)

// TestLineTokensIsThePlannersCost checks that the oracles pay what the
// planner charges: planner.LineTokens of every packed item, in its
// state and at its citation number, is the item's Tokens.
func TestLineTokensIsThePlannersCost(t *testing.T) {
	set := fixture(t)
	db, err := medkb.Open(filepath.Join(t.TempDir(), "kb"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	docs := make([]medkb.Doc, len(set.Docs))
	for i, d := range set.Docs {
		docs[i] = medkb.Doc(d)
	}
	if _, err := db.Ingest(ctx, docs); err != nil {
		t.Fatal(err)
	}
	tok, err := text.NewTokenizer()
	if err != nil {
		t.Fatal(err)
	}
	items := 0
	for _, q := range set.Questions {
		for _, budget := range []int{128, 4096} {
			res, err := db.Query(ctx, statement(&q, budget, "ebm", Config{Now: "2025-06-01"}))
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range res.Items {
				views, err := db.Show([]string{it.Doc})
				if err != nil {
					t.Fatal(err)
				}
				day, err := base.ParseDay(views[0].Time)
				if err != nil {
					t.Fatal(err)
				}
				if got := planner.LineTokens(tok.Count, it.Rank, it.Tier, day, it.State, it.Text); got != it.Tokens {
					t.Errorf("%s: item %d (%s, state %s) costs %d by LineTokens, %d in the result", q.ID, it.Rank, it.ID, it.State, got, it.Tokens)
				}
				items++
			}
		}
	}
	if items == 0 {
		t.Fatal("nothing packed")
	}
}

// TestMostItemsIsExact compares the knapsack with every subset.
func TestMostItemsIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		docs := make([]oracleDoc, r.IntN(7))
		for i := range docs {
			docs[i] = oracleDoc{items: r.IntN(4), whole: 1 + r.IntN(60)}
		}
		budget := r.IntN(150)
		best := 0
		for mask := 0; mask < 1<<len(docs); mask++ {
			items, cost := 0, 0
			for i, d := range docs {
				if mask&(1<<i) != 0 {
					items += d.items
					cost += d.whole
				}
			}
			if cost <= budget {
				best = max(best, items)
			}
		}
		if got := mostItems(docs, func(d oracleDoc) int { return d.whole }, budget); got != best {
			t.Fatalf("%+v within %d: %d items, want %d", docs, budget, got, best)
		}
	}
}

// TestOracleDocs prices one question by hand: a quote lying across two
// chunks of a long document is warned about and never recalled.
func TestOracleDocs(t *testing.T) {
	views := map[string]*medkb.DocView{
		"a": {Doc: medkb.Doc{ID: "a", Time: "2024-01-02"}, Chunks: []medkb.ChunkView{
			{Tier: "T2", Text: "Troponin I 2.3 ng/mL.", TextB: "Troponin I 2.3 ng/mL"},
			{Tier: "T2", Text: "Creatinine 1.1 mg/dL. Potassium", TextB: "Creatinine 1.1 mg/dL"},
			{Tier: "T2", Text: "4.2 mmol/L."},
		}},
		"b": {Doc: medkb.Doc{ID: "b"}, Chunks: []medkb.ChunkView{{Tier: "T4", Text: "Chest pain."}}},
	}
	q := &Question{ID: "q", Pos: "q.jsonl:1", Evidence: []Item{
		{Doc: "a", Quote: "2.3 ng/mL"}, {Doc: "a", Quote: "Potassium 4.2"}, {Doc: "b"},
	}}
	count := func(s string) int { return len([]rune(s)) }
	docs, warnings, err := oracleDocs(q, views, count)
	if err != nil {
		t.Fatal(err)
	}
	line := func(state, tier, day, txt string) int {
		d, _ := base.ParseDay(day)
		return planner.LineTokens(count, 4, tier, d, state, txt)
	}
	whole := line("A", "T2", "2024-01-02", "Troponin I 2.3 ng/mL.") + line("A", "T2", "2024-01-02", "Creatinine 1.1 mg/dL. Potassium") + line("A", "T2", "2024-01-02", "4.2 mmol/L.")
	// State B keeps the first chunk's quote and the second chunk holds
	// none, so both may be compressed; B is "compressed"-tagged, which
	// costs more than the period it saves on the first chunk.
	withB := whole - line("A", "T2", "2024-01-02", "Creatinine 1.1 mg/dL. Potassium") + line("B", "T2", "2024-01-02", "Creatinine 1.1 mg/dL")
	want := []oracleDoc{{items: 1, whole: whole, withB: withB}, {items: 1, whole: line("A", "T4", "", "Chest pain."), withB: line("A", "T4", "", "Chest pain.")}}
	if len(docs) != 2 || docs[0] != want[0] || docs[1] != want[1] {
		t.Errorf("priced %+v, want %+v", docs, want)
	}
	if len(warnings) != 1 {
		t.Errorf("warnings %q, want one for the quote across chunks", warnings)
	}
}
