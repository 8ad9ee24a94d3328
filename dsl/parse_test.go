package dsl

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// TestPrint pins the canonical printing of valid statements and holds
// every one of them to the round trip: Parse(s.String()) is s, positions
// aside, and printing is idempotent.
func TestPrint(t *testing.T) {
	runGolden(t, "print", "print", func(t *testing.T, input string) string {
		s, err := Parse(input)
		if err != nil {
			t.Errorf("valid statement does not parse:\n%s\n%v", input, err)
			return "error: " + err.Error()
		}
		printed := s.String()
		assertRoundTrip(t, s, printed)
		return printed
	})
}

// TestErrors pins the exact text of errors from Parse, or from Check when
// the statement parses.
func TestErrors(t *testing.T) {
	runGolden(t, "errors", "error", func(t *testing.T, input string) string {
		err := parseAndCheck(input)
		if err == nil {
			t.Errorf("no error for:\n%s", input)
			return "no error"
		}
		return err.Error()
	})
}

// TestGrammar keeps the EBNF participle derives from the productions as a
// golden, so any change to the language shows in review.
func TestGrammar(t *testing.T) {
	path := filepath.Join("testdata", "grammar.ebnf")
	got := grammarParser().EBNF() + "\n"
	if rewriting() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("grammar changed; rerun with -rewrite if intended.\ngot:\n%s\nwant:\n%s", got, want)
	}
}

func parseAndCheck(input string) error {
	s, err := Parse(input)
	if err != nil {
		return err
	}
	_, err = Check(s)
	return err
}

func TestErrorsAreTyped(t *testing.T) {
	for _, input := range []string{"", "RETRIEVE", `RETRIEVE "x" LIMIT 0`, "RETRIEVE \"\xff\"", `RETRIEVE "x\q"`} {
		err := parseAndCheck(input)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: error %v (%T) is not an *Error", input, err, err)
		}
	}
}

func TestQuote(t *testing.T) {
	for _, text := range []string{"", "plain", `"quoted" \ back`, "tab\tnew\nline\r\x00\x7f\u0085", "心内科 😀", "\u2028"} {
		assertQuoteRoundTrip(t, text)
	}
	if got := Quote("a\"b\n\x01"); got != `"a\"b\n\u0001"` {
		t.Errorf("Quote = %s", got)
	}
}

func TestEmptyStatement(t *testing.T) {
	for _, input := range []string{"", "   \n\t ", "-- a comment only\n"} {
		_, err := Parse(input)
		var e *Error
		if !errors.As(err, &e) || e.Msg != "empty statement; expected EXPLAIN or RETRIEVE" || e.Pos != (Pos{1, 1, 0}) {
			t.Errorf("%q: got %#v", input, err)
		}
	}
}

func TestStatementSizeLimit(t *testing.T) {
	long := `RETRIEVE "x" ` + strings.Repeat("-- padding\n", (MaxStatementBytes-20)/11)
	if _, err := Parse(long); err != nil {
		t.Fatalf("%d bytes should parse: %v", len(long), err)
	}
	long += strings.Repeat(" ", MaxStatementBytes+1-len(long))
	_, err := Parse(long)
	var e *Error
	want := fmt.Sprintf("statement is %d bytes; at most %d are allowed", MaxStatementBytes+1, MaxStatementBytes)
	if !errors.As(err, &e) || e.Msg != want || e.Pos != (Pos{1, 1, 0}) {
		t.Errorf("got %v", err)
	}
}

// TestLongNote: a clinical note of 64 KiB is a query text; a byte more
// is refused.
func TestLongNote(t *testing.T) {
	sentence := "Troponin I 2.3 ng/mL.\n患者胸痛3小时。\n"
	note := strings.Repeat("x", MaxTextBytes%len(sentence)) + strings.Repeat(sentence, MaxTextBytes/len(sentence))
	s, err := Parse(`RETRIEVE ` + Quote(note) + ` GATE`)
	if err != nil {
		t.Fatal(err)
	}
	q, err := Check(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Text) != MaxTextBytes {
		t.Fatalf("text is %d bytes, want %d", len(q.Text), MaxTextBytes)
	}
	if s, err = Parse(`RETRIEVE ` + Quote(note+"x")); err == nil {
		_, err = Check(s)
	}
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("at most %d are allowed", MaxTextBytes)) {
		t.Errorf("a text of %d bytes: got %v", MaxTextBytes+1, err)
	}
}

func TestInvalidUTF8(t *testing.T) {
	_, err := Parse("RETRIEVE \"ab\"\nWHERE type = \"\xffx\"")
	var e *Error
	if !errors.As(err, &e) || e.Pos != (Pos{Line: 2, Column: 15, Offset: 28}) || e.Msg != "invalid UTF-8 (byte 0xff); a statement must be UTF-8 text" {
		t.Errorf("got %#v", err)
	}
}

// TestCRLF checks that Windows line ends are whitespace and that errors
// do not show the carriage return.
func TestCRLF(t *testing.T) {
	s, err := Parse("RETRIEVE \"x\"\r\nFUSE rrf\r\nLIMIT 5\r\n")
	if err != nil || s.Limit == nil || s.Limit.N.Pos != (Pos{Line: 3, Column: 7, Offset: 30}) {
		t.Fatalf("got %v, %v", s, err)
	}
	_, err = Parse("RETRIEVE \"x\"\r\nFUZE rrf\r\n")
	want := "2:1: unexpected token \"FUZE\"; expected USING, WHERE, GATE, FUSE, EXPAND, RERANK, PACK, LIMIT or end of statement (did you mean FUSE?)\n  FUZE rrf\n  ^"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// TestLexicalErrorComesFirst: of a lexical and a syntax error, the one
// earlier in the text is reported.
func TestLexicalErrorComesFirst(t *testing.T) {
	for input, want := range map[string]string{
		`RETRIEVE "x\q" FUZE rrf`: `1:12: invalid escape \q; use \" \\ \n \t or \uXXXX`,
		`RETRIEVE "x" FUZE # rrf`: `1:14: unexpected token "FUZE"`,
		`RETRIEVE "x" #`:          `1:14: unexpected character "#"`,
	} {
		_, err := Parse(input)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: got %v, want prefix %s", input, err, want)
		}
	}
}

func TestPositions(t *testing.T) {
	src := "RETRIEVE \"心内科\"\n  WHERE meta.科室 = \"x\"\n  EXPAND metapath \"A -r-> B\", \"方名 -r-> 处方\" HOPS 3"
	s, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]Pos{
		"statement": s.Pos,
		"text":      s.Retrieve.Text.Pos,
		"where":     s.Where.Pos,
		"field":     s.Where.Conds[0].Field.Pos,
		"op":        s.Where.Conds[0].OpPos,
		"value":     s.Where.Conds[0].Values[0].Pos,
		"metapath2": s.Expand.Metapaths[1].Pos,
		"hops":      s.Expand.Hops.Pos,
	} {
		want := map[string]Pos{
			"statement": {1, 1, 0},
			"text":      {1, 10, 9},
			"where":     {2, 3, 23},
			"field":     {2, 9, 29},
			"op":        {2, 17, 41},
			"value":     {2, 19, 43},
			"metapath2": {3, 31, 77},
			"hops":      {3, 49, 103},
		}[name]
		if got != want {
			t.Errorf("%s: got %v (offset %d), want %v (offset %d)", name, got, got.Offset, want, want.Offset)
		}
		if got.Offset != (source(src)).posAt(got.Offset).Offset || source(src).posAt(got.Offset) != got {
			t.Errorf("%s: position %#v disagrees with its offset", name, got)
		}
	}
}

// assertRoundTrip checks that printed (s printed) parses back to s and
// prints the same again.
func assertRoundTrip(t testing.TB, s *Statement, printed string) {
	t.Helper()
	back, err := Parse(printed)
	if err != nil {
		t.Fatalf("printed form does not parse:\n%s\n%v", printed, err)
	}
	if again := back.String(); again != printed {
		t.Fatalf("printing is not idempotent:\n%s\n----\n%s", printed, again)
	}
	a, b := withoutPositions(s), withoutPositions(back)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("round trip changed the tree:\n%s\n%#v\n%#v", printed, a, b)
	}
}

// withoutPositions returns a deep copy of s with every Pos zeroed and no
// source text, for comparing trees.
func withoutPositions(s *Statement) *Statement {
	return stripped(reflect.ValueOf(s)).Interface().(*Statement)
}

var posType = reflect.TypeOf(Pos{})

func stripped(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(stripped(v.Elem()))
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(stripped(v.Index(i)))
		}
		return out
	case reflect.Struct:
		if v.Type() == posType {
			return reflect.Zero(posType)
		}
		out := reflect.New(v.Type()).Elem()
		for i := range v.NumField() {
			if out.Field(i).CanSet() { // unexported fields (the source) stay zero
				out.Field(i).Set(stripped(v.Field(i)))
			}
		}
		return out
	}
	return v
}

// TestConcurrentParse: the shared parser is safe for concurrent use.
// Goroutines parse and check every golden input at once, each starting
// at a different input, and every result must equal the one a lone
// parse gives; CI runs it under -race, which also catches a data race
// that happens to give the right answer.
func TestConcurrentParse(t *testing.T) {
	type outcome struct {
		printed, parseErr, checkErr string
		query                       *Query
	}
	run := func(in string) outcome {
		s, err := Parse(in)
		if err != nil {
			return outcome{parseErr: err.Error()}
		}
		o := outcome{printed: s.String()}
		if o.query, err = Check(s); err != nil {
			o.checkErr = err.Error()
		}
		return o
	}
	inputs := goldenInputs(t)
	want := make([]outcome, len(inputs))
	for i, in := range inputs {
		want[i] = run(in)
	}
	const workers = 4
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := range inputs {
				i := (k + w*len(inputs)/workers) % len(inputs)
				if got := run(inputs[i]); !reflect.DeepEqual(got, want[i]) {
					t.Errorf("worker %d, input %d:\n%s\ngot  %+v\nwant %+v", w, i, inputs[i], got, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
}
