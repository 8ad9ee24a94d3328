package bm25

import (
	"fmt"
	"slices"
	"strings"

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
func condQuery(c base.Cond) (query.Query, error) {
	field, err := checkField(c.Field)
	if err != nil {
		return nil, err
	}
	switch c.Op {
	case base.OpIn:
		if len(c.Values) == 0 {
			return nil, badCond(c, "IN needs at least one value")
		}
	case base.OpEq, base.OpNe, base.OpLt, base.OpLe, base.OpGt, base.OpGe:
		if len(c.Values) != 1 {
			return nil, badCond(c, "want exactly one value")
		}
	default:
		return nil, badCond(c, "unknown operator")
	}
	if field == fieldTime {
		return timeQuery(c)
	}
	if c.Op != base.OpEq && c.Op != base.OpNe && c.Op != base.OpIn {
		return nil, badCond(c, "ordering applies to time only")
	}
	terms := make([]query.Query, len(c.Values))
	for i, v := range c.Values {
		if field == base.FieldTier {
			t, err := base.ParseTier(v)
			if err != nil {
				return nil, badCond(c, err.Error())
			}
			v = t.String()
		}
		tq := query.NewTermQuery(v)
		tq.SetField(field)
		terms[i] = tq
	}
	return anyOf(terms), nil
}

// checkField returns the index field a condition names.
func checkField(name string) (string, error) {
	if key, ok := strings.CutPrefix(name, base.MetaPrefix); ok {
		if key == "" {
			return "", fmt.Errorf("%w: field %q names no meta key", ErrBadFilter, name)
		}
		return name, nil
	}
	if name == fieldTime || slices.Contains(keywordFields[:], name) {
		return name, nil
	}
	return "", fmt.Errorf("%w: unknown field %q", ErrBadFilter, name)
}

// timeQuery handles conditions on time, a numeric field of day numbers.
// Chunks without a time match no positive condition.
func timeQuery(c base.Cond) (query.Query, error) {
	days := make([]float64, len(c.Values))
	for i, v := range c.Values {
		d, err := base.ParseDay(v)
		if err != nil {
			return nil, badCond(c, err.Error())
		}
		if d == base.NoDay {
			return nil, badCond(c, "empty date")
		}
		days[i] = float64(d)
	}
	yes, no := true, false
	day := &days[0]
	switch c.Op {
	case base.OpLt:
		return timeRange(nil, day, nil, &no), nil
	case base.OpLe:
		return timeRange(nil, day, nil, &yes), nil
	case base.OpGt:
		return timeRange(day, nil, &no, nil), nil
	case base.OpGe:
		return timeRange(day, nil, &yes, nil), nil
	}
	ranges := make([]query.Query, len(days))
	for i := range days {
		ranges[i] = timeRange(&days[i], &days[i], &yes, &yes)
	}
	return anyOf(ranges), nil
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

func badCond(c base.Cond, why string) error {
	return fmt.Errorf("%w: %s %s %q: %s", ErrBadFilter, c.Field, c.Op, c.Values, why)
}
