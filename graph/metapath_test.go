package graph

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/golden"
)

func TestParseMetapathGolden(t *testing.T) {
	golden.Run(t, "testdata/metapath.txt", func(t *testing.T, c *golden.Case) string {
		m, err := ParseMetapath(c.Input)
		if err != nil {
			return describeError(c.Input, err)
		}
		again, err := ParseMetapath(m.String())
		if err != nil || again.String() != m.String() {
			t.Errorf("%q: canonical form %q does not read back (%v)", c.Input, m.String(), err)
		}
		return describeMetapath(m)
	})
}

// describeMetapath prints m with its positions.
func describeMetapath(m *Metapath) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nstart %s @%d", m, m.Start, m.StartPos)
	for i, s := range m.Steps {
		dir := "forward"
		if s.Reverse {
			dir = "reverse"
		}
		rep := fmt.Sprintf("%d..%d", s.Min, s.Max)
		if s.Max == 0 {
			rep = fmt.Sprintf("%d..hops", s.Min)
		}
		fmt.Fprintf(&b, "\nstep %d: %s %s @%d repeat %s to %s @%d", i+1, dir, s.Relation, s.RelPos, rep, s.To, s.ToPos)
	}
	return b.String()
}

// describeError prints a *MetapathError with a caret under its offset.
func describeError(input string, err error) string {
	var me *MetapathError
	if !errors.As(err, &me) {
		return "unexpected error type: " + err.Error()
	}
	return fmt.Sprintf("error: %s\n  %s\n  %s^", me.Error(), input, strings.Repeat(" ", me.Offset))
}

func TestMetapathStringOfHandMadeValue(t *testing.T) {
	m := &Metapath{Start: "Syndrome", Steps: []Step{
		{Relation: "causes", Min: 1, Max: 0, To: "Syndrome"},
		{Relation: "treated_by", Reverse: true, Min: 2, Max: 3, To: "Formula"},
	}}
	const want = "Syndrome -causes*-> Syndrome <-treated_by*2..3- Formula"
	if got := m.String(); got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
}

func TestMetapathHops(t *testing.T) {
	m, err := ParseMetapath("A -r*-> A -s*2..3-> B <-t- C")
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Hops(4); got != 4+3+1 {
		t.Fatalf("Hops(4) = %d, want 8", got)
	}
}

func FuzzParseMetapath(f *testing.F) {
	for _, s := range []string{
		"Compound -binds-> Gene <-associates- Disease",
		"Syndrome -causes*-> Syndrome",
		"Syndrome -causes*1..3-> Syndrome",
		"方名 -prescription_type-> 处方 -composition-> 中药名",
		"A <-r*2..2- B",
		"A -r->",
		"A <-r->B",
		"-",
		"A -r*9..1-> B",
		"A  -  r  ->  B",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMetapath(s)
		if err != nil {
			var me *MetapathError
			if !errors.As(err, &me) {
				t.Fatalf("%q: error %v is not a *MetapathError", s, err)
			}
			if me.Offset < 0 || me.Offset > len([]rune(s)) {
				t.Fatalf("%q: offset %d outside the text", s, me.Offset)
			}
			return
		}
		text := m.String()
		again, err := ParseMetapath(text)
		if err != nil {
			t.Fatalf("%q: canonical %q does not parse: %v", s, text, err)
		}
		if again.String() != text {
			t.Fatalf("%q: canonical %q reads back as %q", s, text, again.String())
		}
		if len(again.Steps) != len(m.Steps) || again.Start != m.Start {
			t.Fatalf("%q: round trip changed the path", s)
		}
		for i := range m.Steps {
			a, b := m.Steps[i], again.Steps[i]
			if a.Relation != b.Relation || a.Reverse != b.Reverse || a.Min != b.Min || a.Max != b.Max || a.To != b.To {
				t.Fatalf("%q: step %d changed: %+v vs %+v", s, i, a, b)
			}
		}
	})
}
