package planner

import (
	"context"
	"fmt"
	"math"
)

// The weighted(alpha=auto) rule: alpha = clamp(autoAlphaA -
// autoAlphaB*density, 0, 1), rounded to a tenth, where density is the
// query's entity density (entityDensity). A query made of exact names the
// store knows (a drug, a nutrient, a disease: "statin breast cancer") is a
// lexical query and BM25 ranks it best, so alpha falls as the density
// rises; a query of plain words favours the dense arm more. The constants
// were chosen on the NFCorpus dev split (docs/benchmarks.md), never on
// test.
const (
	autoAlphaA = 0.2
	autoAlphaB = 0.1
	// domainDF is the largest share of the store's chunks a term may occur
	// in and still count as a domain term (an entity name) rather than a
	// general word.
	domainDF = 0.01
)

// AutoAlpha is the rule's alpha for a query of the given entity density
// (0 to 1).
func AutoAlpha(density float64) float64 {
	a := autoAlphaA - autoAlphaB*density
	a = math.Max(0, math.Min(1, a))
	return math.Round(a*10) / 10
}

// entityDensity is the share of the query's distinct analysed terms
// (stop words gone, stemmed, as BM25 reads them) that are domain terms:
// the store holds them (df > 0) in at most domainDF of its chunks. A term
// the store never saw is no known entity; a term in many chunks is a
// general word ("effect", "diet"). A query without terms has density 0.
func (x *execution) entityDensity(ctx context.Context) (density float64, entities, total int, err error) {
	terms, n, err := x.env.BM25.QueryTerms(ctx, x.p.Query.Text)
	if err != nil || len(terms) == 0 {
		return 0, 0, 0, err
	}
	for _, t := range terms {
		if isDomainTerm(t.DF, n) {
			entities++
		}
	}
	return float64(entities) / float64(len(terms)), entities, len(terms), nil
}

// isDomainTerm reports whether a term in df of the store's n chunks is a
// domain term: held, by at most domainDF of them.
func isDomainTerm(df, n uint64) bool { return df > 0 && float64(df) <= domainDF*float64(n) }

// autoAlpha chooses the query's alpha and says how, for EXPLAIN ANALYZE.
func (x *execution) autoAlpha(ctx context.Context) (float64, string, error) {
	d, e, n, err := x.entityDensity(ctx)
	if err != nil {
		return 0, "", err
	}
	a := AutoAlpha(d)
	return a, fmt.Sprintf("alpha=%g chosen: entity density %d/%d = %.2f, alpha = clamp(%g - %g*density) to a tenth", a, e, n, d, autoAlphaA, autoAlphaB), nil
}
