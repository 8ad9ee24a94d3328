package weaviate

import (
	"fmt"
	"strings"

	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"

	"github.com/medkb/medkb/internal/base"
)

// fieldTime is the time property: the document's day number (base.Day).
const fieldTime = base.FieldTime

// keywordFields are the filterable text properties, each holding its
// field's value whole; tier holds "T1".."T4".
var keywordFields = [...]string{
	base.FieldTier, base.FieldType, base.FieldPatient, base.FieldSource,
	base.FieldEvidence, base.FieldLang, base.FieldDoc,
}

// metaValue is the meta property's entry for one key: the key's length
// first, so that no key and value run into another pair's ("a=b" + "c"
// against "a" + "b=c").
func metaValue(key, value string) string {
	return fmt.Sprintf("%d:%s=%s", len(key), key, value)
}

// where translates f into a Weaviate filter by base.Cond's semantics;
// nil for the empty filter. = and IN are Equal or ContainsAny on the
// bound values, ordering operators compare day numbers, and != is Not
// around the = filter, so that a chunk without the field passes it (as
// it does in the embedded indexes; Weaviate's NotEqual would drop it).
// A condition base.BindCond did not make is base.ErrBadCond.
func where(f base.Filter) (*filters.WhereBuilder, error) {
	var ops []*filters.WhereBuilder
	for _, c := range f {
		w, err := cond(c)
		if err != nil {
			return nil, fmt.Errorf("weaviate: %w", err)
		}
		ops = append(ops, w)
	}
	switch len(ops) {
	case 0:
		return nil, nil
	case 1:
		return ops[0], nil
	}
	return filters.Where().WithOperator(filters.And).WithOperands(ops), nil
}

func cond(c base.Cond) (*filters.WhereBuilder, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	if c.Op.Ordering() {
		op := map[base.Op]filters.WhereOperator{base.OpLt: filters.LessThan, base.OpLe: filters.LessThanEqual,
			base.OpGt: filters.GreaterThan, base.OpGe: filters.GreaterThanEqual}[c.Op]
		return filters.Where().WithPath([]string{fieldTime}).WithOperator(op).WithValueInt(int64(c.Days[0])), nil
	}
	w := filters.Where().WithOperator(filters.ContainsAny)
	switch key, isMeta := strings.CutPrefix(c.Field, base.MetaPrefix); {
	case c.Field == fieldTime:
		days := make([]int64, len(c.Days))
		for i, d := range c.Days {
			days[i] = int64(d)
		}
		w = w.WithPath([]string{fieldTime}).WithValueInt(days...)
	case isMeta:
		vals := make([]string, len(c.Values))
		for i, v := range c.Values {
			vals[i] = metaValue(key, v)
		}
		w = w.WithPath([]string{propMeta}).WithValueText(vals...)
	default:
		w = w.WithPath([]string{c.Field}).WithValueText(c.Values...)
	}
	if c.Op == base.OpNe {
		return filters.Where().WithOperator(filters.Not).WithOperands([]*filters.WhereBuilder{w}), nil
	}
	return w, nil
}
