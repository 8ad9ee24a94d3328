package bm25

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/medkb/medkb/internal/base"
)

// filterQuery turns a conjunction of conditions into one unscored bleve
// query, or nil for the empty filter. Positive conditions (=, IN, ordering)
// form a conjunction; != conditions are must-not clauses, so a chunk that
// lacks the field passes them (see doc.go, "Filters").
func filterQuery(f base.Filter) (query.Query, error) {
	if len(f) == 0 {
		return nil, nil
	}
	var must, mustNot []query.Query
	for _, c := range f {
		q, err := condQuery(c)
		if err != nil {
			return nil, err
		}
		if c.Op == base.OpNe {
			mustNot = append(mustNot, q)
		} else {
			must = append(must, q)
		}
	}
	if len(mustNot) == 0 {
		return allOf(must), nil
	}
	b := query.NewBooleanQuery(nil, nil, nil)
	if len(must) > 0 {
		b.Must = allOf(must)
	}
	b.MustNot = anyOf(mustNot)
	return b, nil
}

// condQuery returns the query matching the chunks for which c holds; for
// != it returns the query of the excluded value (the caller negates it).
// The semantics are base.Cond's; TestFiltersAgreeWithBase holds this
// translation to them.
func condQuery(c base.Cond) (query.Query, error) {
	if err := c.Check(); err != nil {
		return nil, fmt.Errorf("bm25: %w", err)
	}
	if c.Field == fieldTime {
		return timeQuery(c), nil
	}
	terms := make([]query.Query, len(c.Values))
	for i, v := range c.Values { // tiers' Values are canonical, as indexed
		tq := query.NewTermQuery(v)
		tq.SetField(c.Field)
		terms[i] = tq
	}
	return anyOf(terms), nil
}

// timeQuery handles conditions on time, a numeric field of day numbers.
// Chunks without a time have no value in it, so they match no positive
// condition.
func timeQuery(c base.Cond) query.Query {
	days := make([]float64, len(c.Days))
	for i, d := range c.Days {
		days[i] = float64(d)
	}
	yes, no := true, false
	day := &days[0]
	switch c.Op {
	case base.OpLt:
		return timeRange(nil, day, nil, &no)
	case base.OpLe:
		return timeRange(nil, day, nil, &yes)
	case base.OpGt:
		return timeRange(day, nil, &no, nil)
	case base.OpGe:
		return timeRange(day, nil, &yes, nil)
	}
	ranges := make([]query.Query, len(days))
	for i := range days {
		ranges[i] = timeRange(&days[i], &days[i], &yes, &yes)
	}
	return anyOf(ranges)
}

func timeRange(lo, hi *float64, loIncl, hiIncl *bool) query.Query {
	q := query.NewNumericRangeInclusiveQuery(lo, hi, loIncl, hiIncl)
	q.SetField(fieldTime)
	return q
}

// allOf is the conjunction of qs, or qs[0] alone.
func allOf(qs []query.Query) query.Query {
	if len(qs) == 1 {
		return qs[0]
	}
	return query.NewConjunctionQuery(qs)
}

// anyOf is the disjunction of qs, or qs[0] alone.
func anyOf(qs []query.Query) query.Query {
	if len(qs) == 1 {
		return qs[0]
	}
	return query.NewDisjunctionQuery(qs)
}
