package planner

import (
	"fmt"
	"strings"

	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/internal/base"
)

// dictLookup maps a string attribute value to its store dictionary id.
type dictLookup func(v string) (uint32, bool, error)

// splitForSlots divides f between the vector scan and its post-filter:
// conditions on slot attributes are tested in the scan; conditions on
// meta.KEY cannot be (slots do not carry meta) and are residual, for the
// post-filter over the documents (metaMatches).
func splitForSlots(f base.Filter) (scan, residual base.Filter) {
	for _, c := range f {
		if strings.HasPrefix(c.Field, base.MetaPrefix) {
			residual = append(residual, c)
		} else {
			scan = append(scan, c)
		}
	}
	return scan, residual
}

// compileSlotFilter turns f, conditions on slot attributes only
// (splitForSlots), into a predicate over base.Slot; nil for the empty
// filter. A string value no document has gets no id, so "=" matches
// nothing and "!=" everything (absent attributes have id 0, no value's,
// so "!=" also keeps slots without the field).
func compileSlotFilter(f base.Filter, dict dictLookup) (vector.Match, error) {
	var tests []vector.Match
	for _, c := range f {
		t, err := compileCond(c, dict)
		if err != nil {
			return nil, err
		}
		tests = append(tests, t)
	}
	if len(tests) == 0 {
		return nil, nil
	}
	return func(s *base.Slot) bool {
		for _, t := range tests {
			if !t(s) {
				return false
			}
		}
		return true
	}, nil
}

// compileCond turns one condition into a slot test by base.Cond's
// semantics (its Holds methods); a text value becomes its dictionary id.
func compileCond(c base.Cond, dict dictLookup) (vector.Match, error) {
	if err := c.Check(); err != nil {
		return nil, fmt.Errorf("medkb: %w", err)
	}
	switch c.Field {
	case base.FieldTier:
		return func(s *base.Slot) bool { return c.HoldsTier(s.Tier) }, nil
	case base.FieldTime:
		return func(s *base.Slot) bool { return c.HoldsDay(s.Time) }, nil
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
	// A slot holds one of Values exactly when it holds one of their ids;
	// id 0, an absent attribute, is no value's.
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
		return func(s *base.Slot) bool { return c.Is(field(s) == one) }, nil
	}
	return func(s *base.Slot) bool { return c.Is(ids[field(s)]) }, nil
}

// metaMatches evaluates meta.KEY conditions on a document's meta.
func metaMatches(meta map[string]string, f base.Filter) bool {
	for _, c := range f {
		v, ok := meta[strings.TrimPrefix(c.Field, base.MetaPrefix)]
		if !c.HoldsText(v, ok) {
			return false
		}
	}
	return true
}
