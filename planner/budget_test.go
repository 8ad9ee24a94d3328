package planner_test

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/text"
)

// TestContextWithinBudget runs PACK over the sample store at many budgets
// with every strategy, in English and Chinese, with and without graph
// paths and LIMIT: the context must never cost more tokens than the
// budget, and tokens_used must be its exact cl100k count.
func TestContextWithinBudget(t *testing.T) {
	db := openSample(t)
	tok, err := text.NewTokenizer()
	if err != nil {
		t.Fatal(err)
	}
	queries := []string{
		`RETRIEVE "chest pain, troponin 2.3 ng/mL" EXPAND metapath "Disease -has_symptom-> Symptom"`,
		`RETRIEVE "肌酐升高 肾穿刺活检 病理" WHERE patient = "P002"`,
		`RETRIEVE "penicillin allergy"`,
	}
	for _, q := range queries {
		for _, strategy := range []string{"ebm", "exact", "fifo", "semantic", "uniform"} {
			for budget := 1; budget <= 600; budget += 23 {
				for _, limit := range []string{"", " LIMIT 2"} {
					stmt := fmt.Sprintf(`%s PACK budget %d kmin 1 strategy %s now "2026-01-01"%s`, q, budget, strategy, limit)
					r, err := db.Query(context.Background(), stmt)
					if err != nil {
						t.Fatalf("%s: %v", stmt, err)
					}
					if n := tok.Count(r.Context); n != r.TokensUsed || n > budget || len(r.Sources) != len(r.Items) {
						t.Fatalf("%s: context costs %d tokens, tokens_used %d, %d sources for %d items",
							stmt, n, r.TokensUsed, len(r.Sources), len(r.Items))
					}
				}
			}
		}
	}
}

// TestDropDetailAgreesWithReason: a block dropped for budget has no state
// that fits the budget; one dropped for quota or lower density has one,
// and its detail shows it.
func TestDropDetailAgreesWithReason(t *testing.T) {
	db := openSample(t)
	tokens := regexp.MustCompile(`(\d+) tokens`)
	seen := map[string]bool{}
	for _, q := range []string{`RETRIEVE "chest pain, troponin 2.3 ng/mL"`, `RETRIEVE "肌酐升高 肾穿刺活检 病理" WHERE patient = "P002"`,
		`RETRIEVE "summarise the findings" WHERE patient = "P003"`} {
		for budget := 8; budget <= 400; budget += 24 {
			stmt := fmt.Sprintf(`%s PACK budget %d now "2026-01-01"`, q, budget)
			r, err := db.Query(context.Background(), stmt)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range r.Dropped {
				cheapest := math.MaxInt
				for _, m := range tokens.FindAllStringSubmatch(d.Detail, -1) {
					n, _ := strconv.Atoi(m[1])
					cheapest = min(cheapest, n)
				}
				fits := cheapest <= budget
				if d.Reason == "budget" && fits || (d.Reason == "quota" || d.Reason == "lower-density") && !fits {
					t.Errorf("%s: %s dropped for %s: %s", stmt, d.ID, d.Reason, d.Detail)
				}
				seen[d.Reason] = true
				seen["two states"] = seen["two states"] || strings.Count(d.Detail, "tokens") == 2
			}
		}
	}
	for _, want := range []string{"budget", "quota", "lower-density", "two states"} {
		if !seen[want] {
			t.Errorf("no drop with %s: the test covers less than it should", want)
		}
	}
}
