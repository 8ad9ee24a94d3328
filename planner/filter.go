package planner

import (
	"fmt"
	"strings"

	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/internal/base"
)

// dictLookup maps a string attribute value to its store dictionary id.
type dictLookup func(v string) (uint32, bool, error)

// slotFilter is a WHERE clause compiled for the vector scan: conditions on
// slot attributes are tested in the scan; conditions on meta.KEY cannot be
// (slots do not carry meta) and are returned as residual, for a post-filter.
type slotFilter struct {
	match    vector.Match
	residual base.Filter
}

// compileSlotFilter turns f into a predicate over base.Slot. A string
// value no document has gets id 0 that no slot carries for that value, so
// "=" matches nothing and "!=" everything (absent attributes have id 0
// too, so "!=" of an unknown value also keeps slots without the field).
func compileSlotFilter(f base.Filter, dict dictLookup) (*slotFilter, error) {
	var tests []vector.Match
	sf := &slotFilter{}
	for _, c := range f {
		if strings.HasPrefix(c.Field, base.MetaPrefix) {
			sf.residual = append(sf.residual, c)
			continue
		}
		t, err := compileCond(c, dict)
		if err != nil {
			return nil, err
		}
		tests = append(tests, t)
	}
	if len(tests) == 0 {
		return sf, nil
	}
	sf.match = func(s *base.Slot) bool {
		for _, t := range tests {
			if !t(s) {
				return false
			}
		}
		return true
	}
	return sf, nil
}

func compileCond(c base.Cond, dict dictLookup) (vector.Match, error) {
	switch c.Field {
	case base.FieldTier:
		var want [5]bool
		for _, v := range c.Values {
			t, err := base.ParseTier(v)
			if err != nil {
				return nil, err
			}
			want[t] = true
		}
		return setTest(c.Op, func(s *base.Slot) bool { return want[s.Tier] })
	case base.FieldTime:
		return timeTest(c)
	}
	field := map[string]func(*base.Slot) uint32{
		base.FieldType:     func(s *base.Slot) uint32 { return s.Type },
		base.FieldPatient:  func(s *base.Slot) uint32 { return s.Patient },
		base.FieldSource:   func(s *base.Slot) uint32 { return s.Source },
		base.FieldEvidence: func(s *base.Slot) uint32 { return s.Evidence },
		base.FieldLang:     func(s *base.Slot) uint32 { return s.Lang },
		base.FieldDoc:      func(s *base.Slot) uint32 { return s.DocNum },
	}[c.Field]
	if field == nil {
		return nil, fmt.Errorf("medkb: cannot filter on field %q", c.Field)
	}
	ids := map[uint32]bool{}
	for _, v := range c.Values {
		id, ok, err := dict(v)
		if err != nil {
			return nil, err
		}
		if ok {
			ids[id] = true
		}
	}
	if len(ids) == 1 {
		var one uint32
		for id := range ids {
			one = id
		}
		return setTest(c.Op, func(s *base.Slot) bool { return field(s) == one })
	}
	return setTest(c.Op, func(s *base.Slot) bool { return ids[field(s)] })
}

// setTest applies an equality-style operator to a membership test.
func setTest(op base.Op, in func(*base.Slot) bool) (vector.Match, error) {
	switch op {
	case base.OpEq, base.OpIn:
		return in, nil
	case base.OpNe:
		return func(s *base.Slot) bool { return !in(s) }, nil
	}
	return nil, fmt.Errorf("medkb: operator %s applies to time only", op)
}

func timeTest(c base.Cond) (vector.Match, error) {
	days := make([]base.Day, len(c.Values))
	for i, v := range c.Values {
		d, err := base.ParseDay(v)
		if err != nil || d == base.NoDay {
			return nil, fmt.Errorf("medkb: time value %q: %v", v, err)
		}
		days[i] = d
	}
	d := days[0]
	has := func(s *base.Slot) bool { return s.Time != base.NoDay }
	switch c.Op {
	case base.OpEq:
		return func(s *base.Slot) bool { return s.Time == d }, nil
	case base.OpNe:
		return func(s *base.Slot) bool { return s.Time != d }, nil
	case base.OpLt:
		return func(s *base.Slot) bool { return has(s) && s.Time < d }, nil
	case base.OpLe:
		return func(s *base.Slot) bool { return has(s) && s.Time <= d }, nil
	case base.OpGt:
		return func(s *base.Slot) bool { return s.Time > d }, nil
	case base.OpGe:
		return func(s *base.Slot) bool { return s.Time >= d }, nil
	case base.OpIn:
		return func(s *base.Slot) bool {
			for _, x := range days {
				if s.Time == x {
					return true
				}
			}
			return false
		}, nil
	}
	return nil, fmt.Errorf("medkb: unknown operator %q", c.Op)
}
