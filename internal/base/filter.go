package base

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Op is a comparison in a WHERE condition.
type Op string

// The comparison operators of the query language.
const (
	OpEq Op = "="
	OpNe Op = "!="
	OpLt Op = "<"
	OpLe Op = "<="
	OpGt Op = ">"
	OpGe Op = ">="
	OpIn Op = "IN"
)

// Known reports whether op is one of the operators above.
func (op Op) Known() bool { return op == OpEq || op == OpNe || op == OpIn || op.Ordering() }

// Ordering reports whether op compares order (<, <=, >, >=), which only
// the time field allows.
func (op Op) Ordering() bool { return op == OpLt || op == OpLe || op == OpGt || op == OpGe }

// Filterable fields. A condition on "meta.KEY" names a key of Doc.Meta.
const (
	FieldTier     = "tier"
	FieldType     = "type"
	FieldPatient  = "patient"
	FieldTime     = "time"
	FieldSource   = "source"
	FieldEvidence = "evidence"
	FieldLang     = "lang"
	FieldDoc      = "doc"
	MetaPrefix    = "meta."
)

// TextFields are the fields whose values are compared as exact strings,
// besides meta.KEY.
var TextFields = [...]string{FieldType, FieldPatient, FieldSource, FieldEvidence, FieldLang, FieldDoc}

// KnownField reports whether f names a filterable field: tier, time, one
// of TextFields, or meta.KEY with a non-empty KEY.
func KnownField(f string) bool {
	if key, ok := strings.CutPrefix(f, MetaPrefix); ok {
		return key != ""
	}
	return f == FieldTier || f == FieldTime || slices.Contains(TextFields[:], f)
}

// Cond is one bound WHERE condition: Values holds one value, or several
// for OpIn, in their canonical text (tiers "T1".."T4", days YYYY-MM-DD),
// and the typed values are read once, here, by BindCond: Tiers for the
// tier field, Days for time. Indexes compare the typed values and never
// parse Values again.
//
// The semantics, which every index implements (the vector scan by
// calling the Holds methods, BM25 by translating them into its queries,
// tested against them):
//   - =, IN hold when the record has the field and its value is one of
//     Values; != holds when = does not, so a record without the field
//     passes every != condition.
//   - <, <=, >, >= compare days and apply to time only; a record without
//     a time matches none of them.
//   - Text values (TextFields, meta.KEY) compare exactly, case and all.
//   - A Filter is a conjunction; the empty filter matches all.
type Cond struct {
	Field  string
	Op     Op
	Values []string
	Tiers  []Tier // FieldTier only: Values read
	Days   []Day  // FieldTime only: Values read
}

// Filter is a conjunction of conditions; the empty filter matches all.
type Filter []Cond

// ErrBadCond is wrapped by the errors of BindCond and Cond.Check.
var ErrBadCond = errors.New("bad filter condition")

// BindCond checks a condition and reads its values: a tier value may be
// written in any case, a time value in any layout ParseDay reads (a month
// or a year gives its first day; the query language picks the period's
// end for <= and > before it binds).
func BindCond(field string, op Op, values ...string) (Cond, error) {
	c := Cond{Field: field, Op: op}
	if err := c.checkShape(len(values)); err != nil {
		return c, err
	}
	for _, v := range values {
		switch field {
		case FieldTier:
			t, err := ParseTier(v)
			if err != nil {
				return c, c.bad(err.Error())
			}
			c.Tiers, v = append(c.Tiers, t), t.String()
		case FieldTime:
			d, err := ParseDay(v)
			switch {
			case err != nil:
				return c, c.bad(err.Error())
			case d == NoDay:
				return c, c.bad("empty date")
			}
			c.Days, v = append(c.Days, d), d.String()
		}
		c.Values = append(c.Values, v)
	}
	return c, nil
}

// Check reports whether c is a condition BindCond could have made: a
// known field and operator, the right number of values, and the typed
// values read.
func (c Cond) Check() error {
	if err := c.checkShape(len(c.Values)); err != nil {
		return err
	}
	switch {
	case c.Field == FieldTier && len(c.Tiers) != len(c.Values):
		return c.bad("tier values not bound (use BindCond)")
	case c.Field == FieldTime && len(c.Days) != len(c.Values):
		return c.bad("time values not bound (use BindCond)")
	}
	return nil
}

func (c Cond) checkShape(n int) error {
	switch {
	case !KnownField(c.Field):
		return c.bad("unknown field")
	case !c.Op.Known():
		return c.bad("unknown operator")
	case c.Op.Ordering() && c.Field != FieldTime:
		return c.bad("ordering applies to time only")
	case c.Op == OpIn && n == 0:
		return c.bad("IN needs at least one value")
	case c.Op != OpIn && n != 1:
		return c.bad("want exactly one value")
	}
	return nil
}

func (c Cond) bad(why string) error {
	return fmt.Errorf("%w: %s %s %q: %s", ErrBadCond, c.Field, c.Op, c.Values, why)
}

// Is turns membership into the condition's verdict for =, IN and !=:
// in says whether the record has the field with one of Values.
func (c Cond) Is(in bool) bool { return in != (c.Op == OpNe) }

// HoldsText reports whether c, on a text field or meta.KEY, holds for a
// record whose value is v (has false: the record has none).
func (c Cond) HoldsText(v string, has bool) bool {
	return c.Is(has && slices.Contains(c.Values, v))
}

// HoldsTier reports whether c, on tier, holds for a record of tier t
// (TierNone: none given).
func (c Cond) HoldsTier(t Tier) bool {
	return c.Is(t != TierNone && slices.Contains(c.Tiers, t))
}

// HoldsDay reports whether c, on time, holds for a record of day d
// (NoDay: none given).
func (c Cond) HoldsDay(d Day) bool {
	if !c.Op.Ordering() {
		return c.Is(d != NoDay && slices.Contains(c.Days, d))
	}
	if d == NoDay {
		return false
	}
	switch c.Op {
	case OpLt:
		return d < c.Days[0]
	case OpLe:
		return d <= c.Days[0]
	case OpGt:
		return d > c.Days[0]
	}
	return d >= c.Days[0]
}
