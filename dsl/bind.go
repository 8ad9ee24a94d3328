package dsl

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/medkb/medkb/dsl/internal/grammar"
)

// Args maps parameter names (without the $) to values: a string, or a
// number of any Go integer or float type.
type Args map[string]any

// slot is one place where the statement holds a parameter; exactly one
// of str, num and val is set.
type slot struct {
	str *Str
	num *Num
	val *Value
}

func (sl slot) placeholder() (*Placeholder, Pos) {
	switch {
	case sl.str != nil:
		return sl.str.Placeholder, sl.str.Pos
	case sl.num != nil:
		return sl.num.Placeholder, sl.num.Pos
	}
	return sl.val.Placeholder, sl.val.Pos
}

// slots lists the parameters of s in the order they are written.
func (s *Statement) slots() []slot {
	var out []slot
	addStr := func(x *Str) {
		if x != nil && x.Placeholder != nil {
			out = append(out, slot{str: x})
		}
	}
	addNum := func(ns ...*Num) {
		for _, n := range ns {
			if n != nil && n.Placeholder != nil {
				out = append(out, slot{num: n})
			}
		}
	}
	if s.Retrieve != nil {
		addStr(&s.Retrieve.Text)
	}
	if u := s.Using; u != nil {
		for _, a := range []*ArmSpec{u.BM25, u.Vector} {
			if a != nil {
				addNum(a.K)
			}
		}
	}
	if s.Where != nil {
		for i := range s.Where.Conds {
			for j := range s.Where.Conds[i].Values {
				if v := &s.Where.Conds[i].Values[j]; v.Placeholder != nil {
					out = append(out, slot{val: v})
				}
			}
		}
	}
	if s.Gate != nil {
		addNum(s.Gate.Theta1, s.Gate.Theta2)
	}
	if s.Fuse != nil {
		addNum(s.Fuse.Param, s.Fuse.Docs)
	}
	if e := s.Expand; e != nil {
		addNum(e.Hops, e.Limit, e.When)
	}
	if r := s.Rerank; r != nil {
		addNum(r.Top)
	}
	if p := s.Pack; p != nil {
		addNum(p.Budget, p.Kmin)
		if p.Weights != nil {
			for i := range p.Weights.Nums {
				addNum(&p.Weights.Nums[i])
			}
		}
		addNum(p.Lambda, p.Epsilon, p.Floor, p.Reliab)
		addStr(p.Now)
	}
	if s.Limit != nil {
		addNum(&s.Limit.N)
	}
	slices.SortStableFunc(out, func(a, b slot) int {
		_, pa := a.placeholder()
		_, pb := b.placeholder()
		return pa.Offset - pb.Offset
	})
	return out
}

// Bind gives every parameter of s its value from args, in place: the
// values become the literals Check reads, and are never put back into
// text, so no value can change what the statement says. The errors,
// each an *Error: a name in args that is no name, a parameter args has
// no value for, a value of a kind its place does not take, a value args
// holds that the statement does not use. A Statement may be bound again
// with other values, but not by two goroutines at once.
func (s *Statement) Bind(args Args) error {
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !grammar.IsName(name) {
			return s.src.errorf(s.Pos, "parameter name %q is not a name%s", name, nameHint(name))
		}
	}
	used := map[string]bool{}
	for _, sl := range s.slots() {
		ph, at := sl.placeholder()
		used[ph.Name] = true
		v, ok := args[ph.Name]
		if !ok {
			return s.src.errorf(at, "parameter $%s has no value%s", ph.Name, caseHint(ph.Name, names))
		}
		if msg := sl.set(v); msg != "" {
			return s.src.errorf(at, "parameter $%s %s", ph.Name, msg)
		}
		ph.Bound = true
	}
	for _, name := range names {
		if !used[name] {
			return s.src.errorf(s.Pos, "parameter $%s is given a value but the statement does not use it", name)
		}
	}
	return nil
}

// nameHint explains what is wrong with a parameter name.
func nameHint(name string) string {
	if strings.HasPrefix(name, "$") && grammar.IsName(name[1:]) {
		return fmt.Sprintf("; give it without the $ (%s)", name[1:])
	}
	return "; a name is a letter or _, then letters, digits and _"
}

// caseHint points out a given name that differs from name only in case.
func caseHint(name string, given []string) string {
	for _, g := range given {
		if strings.EqualFold(g, name) {
			return fmt.Sprintf(" (names are case-sensitive; one is given for %s)", g)
		}
	}
	return ""
}

// set stores v in sl, or says why v does not fit.
func (sl slot) set(v any) string {
	text, isNum, msg := argValue(v)
	if msg != "" {
		return msg
	}
	switch {
	case sl.str != nil:
		if isNum {
			return fmt.Sprintf("stands for a string here; got the number %s", text)
		}
		sl.str.Value = text
	case sl.num != nil:
		if !isNum && !isDecimal(text) {
			return fmt.Sprintf("stands for a number here; got the string %s", quote(text))
		}
		sl.num.Text = text
	default:
		sl.val.Kind, sl.val.Text = ValueString, text
		if isNum {
			sl.val.Kind = ValueNumber
		}
	}
	return ""
}

// argValue reads a parameter's value: its text (a number as the language
// writes it), whether it is a number, or why it cannot be a value.
func argValue(v any) (text string, isNum bool, msg string) {
	if s, ok := v.(string); ok {
		if !utf8.ValidString(s) {
			return "", false, "is not valid UTF-8"
		}
		return s, false, ""
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if r.Int() < 0 {
			return "", false, fmt.Sprintf("is negative (%d); negative numbers are not allowed", r.Int())
		}
		return strconv.FormatInt(r.Int(), 10), true, ""
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(r.Uint(), 10), true, ""
	case reflect.Float32, reflect.Float64:
		f := r.Float()
		switch {
		case math.IsNaN(f) || math.IsInf(f, 0):
			return "", false, fmt.Sprintf("is %v; a number must be finite", f)
		case f < 0:
			return "", false, fmt.Sprintf("is negative (%s); negative numbers are not allowed", fmtFloat(f))
		}
		return strconv.FormatFloat(f, 'f', -1, 64), true, ""
	}
	return "", false, fmt.Sprintf("is a %T; a parameter takes a string or a number", v)
}

// Binding is one parameter as Check found it bound, for EXPLAIN.
type Binding struct {
	Name  string
	Pos   Pos
	Value string // as a literal: quoted string, or number
}

// String renders b as $name = value.
func (b Binding) String() string { return "$" + b.Name + " = " + b.Value }

// bindings lists the bound parameters of s, each name once at its first
// place, or the error for the first that is not bound.
func (s *Statement) bindings() ([]Binding, *Error) {
	var out []Binding
	seen := map[string]bool{}
	for _, sl := range s.slots() {
		ph, at := sl.placeholder()
		if !ph.Bound {
			return nil, s.src.errorf(at, "parameter $%s has no value", ph.Name)
		}
		if seen[ph.Name] {
			continue
		}
		seen[ph.Name] = true
		b := Binding{Name: ph.Name, Pos: at}
		switch {
		case sl.str != nil:
			b.Value = quote(sl.str.Value)
		case sl.num != nil:
			b.Value = sl.num.Text
		case sl.val.Kind == ValueNumber:
			b.Value = sl.val.Text
		default:
			b.Value = quote(sl.val.Text)
		}
		out = append(out, b)
	}
	return out, nil
}
