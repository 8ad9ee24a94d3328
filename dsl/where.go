package dsl

import (
	"fmt"
	"strings"

	"github.com/medkb/medkb/internal/base"
)

// where binds the WHERE clause into a base.Filter.
func (c *checker) where(s *Statement) *Error {
	if s.Where == nil {
		return nil
	}
	for _, cond := range s.Where.Conds {
		bound, err := c.cond(cond)
		if err != nil {
			return err
		}
		c.q.Filter = append(c.q.Filter, bound)
		c.q.FilterPos = append(c.q.FilterPos, cond.Pos)
	}
	return nil
}

// fieldNames lists the known fields as messages name them.
const fieldNames = "tier, type, patient, time, source, evidence, lang, doc and meta.KEY"

func (c *checker) cond(cond Condition) (base.Cond, *Error) {
	field, op := cond.Field.Name, cond.Op
	switch {
	case field == base.MetaPrefix:
		return base.Cond{}, c.src.errorf(cond.Field.Pos, "meta needs a key, as in meta.department")
	case !base.KnownField(field):
		return base.Cond{}, c.src.errorf(cond.Field.Pos, "unknown field %q; the fields are %s", field, fieldNames)
	case !op.Known():
		return base.Cond{}, c.src.errorf(cond.OpPos, "unknown operator %q", op)
	case op.Ordering() && field != base.FieldTime:
		return base.Cond{}, c.src.errorf(cond.OpPos, "%s compares times only; %s takes =, != or IN", op, field)
	case len(cond.Values) == 0 || op != base.OpIn && len(cond.Values) != 1:
		return base.Cond{}, c.src.errorf(cond.OpPos, "%s takes one value, got %d", op, len(cond.Values))
	}
	values := make([]string, len(cond.Values))
	for i, v := range cond.Values {
		bound, err := c.value(field, op, v)
		if err != nil {
			return base.Cond{}, err
		}
		values[i] = bound
	}
	out, err := base.BindCond(field, op, values...)
	if err != nil { // the checks above are BindCond's, with positions
		panic(fmt.Sprintf("dsl: a checked condition does not bind: %v", err))
	}
	return out, nil
}

// value normalises one value: tiers to T1..T4, times to YYYY-MM-DD.
func (c *checker) value(field string, op base.Op, v Value) (string, *Error) {
	switch field {
	case base.FieldTier:
		t, err := base.ParseTier(v.Text)
		if err != nil {
			return "", c.src.errorf(v.Pos, "%v", err)
		}
		return t.String(), nil
	case base.FieldTime:
		return c.day(op, v)
	}
	return v.Text, nil
}

// day binds a time value. A year or a month stands for a period: < and
// >= compare with its first day, <= and > with its last, so that
// time <= "2018" keeps all of 2018. = and != need a whole date.
func (c *checker) day(op base.Op, v Value) (string, *Error) {
	first, last, err := base.ParsePeriod(v.Text)
	switch {
	case err != nil:
		return "", c.src.errorf(v.Pos, "%v", err)
	case first == base.NoDay:
		return "", c.src.errorf(v.Pos, "time value is empty")
	case first == last:
		return first.String(), nil
	}
	switch op {
	case base.OpLt, base.OpGe:
		return first.String(), nil
	case base.OpLe, base.OpGt:
		return last.String(), nil
	}
	text := strings.TrimSpace(v.Text)
	return "", c.src.errorf(v.Pos, "time %s needs a whole date (YYYY-MM-DD); for a period write time >= %q AND time <= %q", op, text, text)
}
