package planner

import (
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// TestSlotFilterAgreesWithBase: the vector scan's filter, which compares
// dictionary ids, keeps exactly the slots whose attribute texts base.Cond
// holds for, absent attributes (id 0) included.
func TestSlotFilterAgreesWithBase(t *testing.T) {
	ids := map[string]uint32{"lab": 1, "note": 2, "P001": 3, "P002": 4, "d1": 5, "d2": 6}
	dict := func(v string) (uint32, bool, error) { id, ok := ids[v]; return id, ok, nil }
	text := map[uint32]string{}
	for v, id := range ids {
		text[id] = v
	}
	day := func(s string) base.Day { d, _ := base.ParseDay(s); return d }
	slots := []base.Slot{
		{Ord: 1, Tier: base.T1, Type: 1, Patient: 3, DocNum: 5, Time: day("2019-01-01")},
		{Ord: 2, Tier: base.T2, Type: 2, Patient: 4, DocNum: 6, Time: day("2020-06-30")},
		{Ord: 3, Tier: base.T3, Type: 1, DocNum: 6, Time: base.NoDay},
		{Ord: 4, Tier: base.TierNone},
	}
	bind := func(field string, op base.Op, v ...string) base.Cond {
		c, err := base.BindCond(field, op, v...)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, c := range []base.Cond{
		bind("type", "=", "lab"), bind("type", "!=", "lab"), bind("type", "IN", "lab", "note"),
		bind("patient", "=", "P001"), bind("patient", "!=", "P001"), bind("patient", "=", "P999"),
		bind("patient", "!=", "P999"), bind("doc", "IN", "d2", "nope"), bind("tier", "!=", "T1"),
		bind("tier", "IN", "T2", "T3"), bind("time", "<", "2020"), bind("time", ">=", "2019-01-01"),
		bind("time", "!=", "2019-01-01"), bind("time", "IN", "2020-06-30"),
	} {
		match, err := compileSlotFilter(base.Filter{c}, dict)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range slots {
			var want bool
			switch c.Field {
			case base.FieldTier:
				want = c.HoldsTier(s.Tier)
			case base.FieldTime:
				want = c.HoldsDay(s.Time)
			default:
				id := map[string]uint32{"type": s.Type, "patient": s.Patient, "doc": s.DocNum}[c.Field]
				want = c.HoldsText(text[id], id != 0)
			}
			if got := match(&s); got != want {
				t.Errorf("%s %s %v on slot %d: %t, base.Cond says %t", c.Field, c.Op, c.Values, s.Ord, got, want)
			}
		}
	}
}
