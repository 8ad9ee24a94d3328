package dsl

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/golden"
)

// TestBindGolden runs testdata/params: "bind name=value ..." binds the
// statement (a value written n:12 is the number 12, not the string) and
// prints the checked query, or the error.
func TestBindGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "params"), func(t *testing.T, c *golden.Case) string {
		if c.Cmd != "bind" {
			t.Fatalf("testdata/params:%d: command %q, want bind", c.Line, c.Cmd)
		}
		args := Args{}
		for name, v := range c.Args {
			args[name] = goldenArg(t, v)
		}
		return bindAndCheck(c.Input, args)
	})
}

func goldenArg(t *testing.T, v string) any {
	num, ok := strings.CutPrefix(v, "n:")
	if !ok {
		return v
	}
	if i, err := strconv.Atoi(num); err == nil {
		return i
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		t.Fatalf("bad number %q", v)
	}
	return f
}

// bindAndCheck parses, binds and checks src, returning the query dump or
// the error.
func bindAndCheck(src string, args Args) string {
	s, err := Parse(src)
	if err != nil {
		return err.Error()
	}
	if err := s.Bind(args); err != nil {
		return err.Error()
	}
	q, err := Check(s)
	if err != nil {
		return err.Error()
	}
	return q.String()
}

// TestBindCannotRewrite: whatever a value holds, it stays one value in
// one place; the statement's shape does not change.
func TestBindCannotRewrite(t *testing.T) {
	const src = `RETRIEVE $q WHERE patient = $p PACK budget 256`
	for _, evil := range []string{
		`cancer" --`, `"`, `)`, `A100" OR patient = "B200`, "A100\nWHERE tier = T1",
		`WHERE`, `$p`, `$q`, `x" PACK budget 1 --`, `\`, "--",
	} {
		s, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Bind(Args{"q": evil, "p": evil}); err != nil {
			t.Fatalf("%q: %v", evil, err)
		}
		q, err := Check(s)
		if err != nil {
			t.Fatalf("%q: %v", evil, err)
		}
		if q.Text != evil || len(q.Filter) != 1 || len(q.Filter[0].Values) != 1 || q.Filter[0].Values[0] != evil {
			t.Fatalf("%q: bound into\n%s", evil, q)
		}
		if q.Pack == nil || q.Pack.Budget != 256 {
			t.Fatalf("%q: the budget changed:\n%s", evil, q)
		}
		if got := s.String(); got != "RETRIEVE $q\nWHERE patient = $p\nPACK budget 256" {
			t.Fatalf("%q: the statement prints as\n%s", evil, got)
		}
	}
}

// TestRebind: a statement parsed once takes new values on each Bind.
func TestRebind(t *testing.T) {
	s, err := Parse(`RETRIEVE "x" WHERE patient = $p`)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"A100", "B200"} {
		if err := s.Bind(Args{"p": p}); err != nil {
			t.Fatal(err)
		}
		q, err := Check(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := q.Filter[0].Values[0]; got != p {
			t.Fatalf("bound %q, filter holds %q", p, got)
		}
	}
}
