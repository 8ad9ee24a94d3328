package dsl

import (
	"errors"
	"testing"
	"unicode/utf8"
)

// FuzzParse: Parse never panics; its errors are *Error with a position
// inside the input; a statement it accepts prints to text that parses back
// to the same tree and prints the same again; Check never panics; and
// Quote makes a literal of any text that reads back as that text.
func FuzzParse(f *testing.F) {
	for _, input := range goldenInputs(f) {
		f.Add(input)
	}
	f.Fuzz(func(t *testing.T, src string) {
		assertQuoteRoundTrip(t, src)
		s, err := Parse(src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is %T, not *Error", err, err)
			}
			if e.Pos.Line < 1 || e.Pos.Column < 1 || e.Pos.Offset < 0 || e.Pos.Offset > len(src) {
				t.Fatalf("error position %#v outside the input (%d bytes): %v", e.Pos, len(src), err)
			}
			if utf8.ValidString(src) && len(src) <= MaxStatementBytes && source(src).posAt(e.Pos.Offset) != e.Pos {
				t.Fatalf("error position %#v disagrees with its offset (%#v)", e.Pos, source(src).posAt(e.Pos.Offset))
			}
			_ = e.Error()
			return
		}
		assertRoundTrip(t, s, s.String())
		if q, err := Check(s); err == nil {
			_ = q.String()
		} else {
			_ = err.Error()
		}
	})
}

func assertQuoteRoundTrip(t *testing.T, text string) {
	t.Helper()
	if !utf8.ValidString(text) || len(text) > MaxStatementBytes/8 {
		return
	}
	s, err := Parse("RETRIEVE " + Quote(text))
	if err != nil {
		t.Fatalf("Quote(%q) = %s does not parse: %v", text, Quote(text), err)
	}
	if s.Retrieve.Text.Value != text {
		t.Fatalf("Quote(%q) reads back as %q", text, s.Retrieve.Text.Value)
	}
}

// FuzzBind: binding one value to every parameter of a statement that
// parses never panics; its errors are positioned *Error values; binding
// leaves the statement's text as it was ($name stays $name); and when the
// bound statement checks, its query text is the value itself whenever
// RETRIEVE names a parameter. extra, when not empty, is one more name
// given a value, which Bind must refuse unless the statement uses it.
func FuzzBind(f *testing.F) {
	for _, input := range goldenInputs(f) {
		f.Add(input, `cancer" --`, "")
	}
	f.Add(`RETRIEVE $q WHERE patient = $p PACK budget $b`, "256", "x")
	f.Add(`RETRIEVE $q WHERE patient IN ($p, $p)`, "A100\nWHERE tier = T1", "$p")
	f.Fuzz(func(t *testing.T, src, value, extra string) {
		s, err := Parse(src)
		if err != nil {
			return
		}
		before := s.String()
		args := Args{}
		for _, sl := range s.slots() {
			ph, _ := sl.placeholder()
			args[ph.Name] = value
		}
		_, used := args[extra]
		if extra != "" {
			args[extra] = value
		}
		err = s.Bind(args)
		if after := s.String(); after != before {
			t.Fatalf("binding changed the statement:\n%s\nto\n%s", before, after)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is %T, not *Error", err, err)
			}
			if e.Pos.Offset < 0 || e.Pos.Offset > len(src) {
				t.Fatalf("error position %#v outside the input: %v", e.Pos, err)
			}
			_ = e.Error()
			return
		}
		if extra != "" && !used {
			t.Fatalf("Bind accepted the unused parameter %q", extra)
		}
		q, err := Check(s)
		if err != nil {
			_ = err.Error()
			return
		}
		if s.Retrieve.Text.Placeholder != nil && q.Text != value {
			t.Fatalf("query text %q, bound %q", q.Text, value)
		}
		_ = q.String()
	})
}
