package base

import (
	"errors"
	"slices"
	"testing"
)

func TestBindCond(t *testing.T) {
	c, err := BindCond(FieldTier, OpIn, "t2", " T1 ")
	if err != nil || !slices.Equal(c.Values, []string{"T2", "T1"}) || !slices.Equal(c.Tiers, []Tier{T2, T1}) {
		t.Fatalf("tier: %+v, %v", c, err)
	}
	c, err = BindCond(FieldTime, OpGe, "2024/3/5")
	if err != nil || !slices.Equal(c.Values, []string{"2024-03-05"}) || len(c.Days) != 1 || c.Days[0].String() != "2024-03-05" {
		t.Fatalf("time: %+v, %v", c, err)
	}
	if err := c.Check(); err != nil {
		t.Errorf("a bound condition fails Check: %v", err)
	}
	for name, bad := range map[string]func() (Cond, error){
		"unknown field":    func() (Cond, error) { return BindCond("colour", OpEq, "red") },
		"meta without key": func() (Cond, error) { return BindCond(MetaPrefix, OpEq, "x") },
		"ordering on text": func() (Cond, error) { return BindCond(FieldType, OpLt, "lab") },
		"unknown operator": func() (Cond, error) { return BindCond(FieldType, "LIKE", "lab") },
		"bad tier":         func() (Cond, error) { return BindCond(FieldTier, OpEq, "T9") },
		"empty date":       func() (Cond, error) { return BindCond(FieldTime, OpEq, "") },
		"IN without value": func() (Cond, error) { return BindCond(FieldType, OpIn) },
		"= with two":       func() (Cond, error) { return BindCond(FieldType, OpEq, "a", "b") },
	} {
		if _, err := bad(); !errors.Is(err, ErrBadCond) {
			t.Errorf("%s: %v, want ErrBadCond", name, err)
		}
	}
	if err := (Cond{Field: FieldTier, Op: OpEq, Values: []string{"T1"}}).Check(); !errors.Is(err, ErrBadCond) {
		t.Errorf("an unbound tier passes Check: %v", err)
	}
}

// TestHolds: a record without the field passes != and fails the rest.
func TestHolds(t *testing.T) {
	bind := func(field string, op Op, v ...string) Cond {
		c, err := BindCond(field, op, v...)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	day, _ := ParseDay("2020-01-02")
	for _, tc := range []struct {
		name string
		got  bool
		want bool
	}{
		{"text =", bind(FieldType, OpEq, "lab").HoldsText("lab", true), true},
		{"text = is exact", bind(FieldType, OpEq, "lab").HoldsText("Lab", true), false},
		{"text = absent", bind(FieldType, OpEq, "").HoldsText("", false), false},
		{"text != absent", bind(FieldType, OpNe, "lab").HoldsText("", false), true},
		{"text IN", bind(FieldType, OpIn, "a", "lab").HoldsText("lab", true), true},
		{"tier !=", bind(FieldTier, OpNe, "T1").HoldsTier(T2), true},
		{"tier != none", bind(FieldTier, OpNe, "T1").HoldsTier(TierNone), true},
		{"tier IN none", bind(FieldTier, OpIn, "T1", "T2").HoldsTier(TierNone), false},
		{"time <", bind(FieldTime, OpLt, "2020-01-03").HoldsDay(day), true},
		{"time <=", bind(FieldTime, OpLe, "2020-01-02").HoldsDay(day), true},
		{"time >", bind(FieldTime, OpGt, "2020-01-02").HoldsDay(day), false},
		{"time >=", bind(FieldTime, OpGe, "2020-01-02").HoldsDay(day), true},
		{"time < none", bind(FieldTime, OpLt, "2020-01-03").HoldsDay(NoDay), false},
		{"time != none", bind(FieldTime, OpNe, "2020-01-03").HoldsDay(NoDay), true},
		{"time IN", bind(FieldTime, OpIn, "2019", "2020-01-02").HoldsDay(day), true},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %t, want %t", tc.name, tc.got, tc.want)
		}
	}
}
