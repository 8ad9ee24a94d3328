package main

import (
	"strings"
	"testing"
)

func TestSplitStatements(t *testing.T) {
	stmts, rest, open := splitStatements(`RETRIEVE "a;b" LIMIT 1; RETRIEVE "x" -- no; here` + "\n" + `LIMIT 2; RETRIEVE "op`)
	if len(stmts) != 2 || stmts[0] != `RETRIEVE "a;b" LIMIT 1;` || !strings.HasSuffix(stmts[1], "LIMIT 2;") ||
		rest != ` RETRIEVE "op` || !open {
		t.Fatalf("%q %q %v", stmts, rest, open)
	}
}

// TestReplLines: a blank line outside a statement changes nothing; \q and
// \help work inside a pending statement; .help is a command that leaves
// the next lines alone; several statements on one line each run; piped
// input without a failure exits 0.
func TestReplLines(t *testing.T) {
	db := sampleStore(t)
	repl := func(in string) (int, string, string) {
		return cli(t, in, append([]string{"repl"}, db...)...)
	}
	code, out, errOut := repl("\n\n\\json on\nRETRIEVE \"troponin\" LIMIT 1; RETRIEVE \"anemia\" LIMIT 1;\n")
	if code != 0 || strings.Count(out, `"items"`) != 2 {
		t.Fatalf("two statements on a line: %d %q %q", code, out, errOut)
	}
	code, out, errOut = repl("RETRIEVE \"troponin\"\n\\help\n\\q\nRETRIEVE \"never\" LIMIT 1;\n")
	if code != 0 || !strings.Contains(out, `\q `) || strings.Contains(out, "[1]") || errOut != "" {
		t.Fatalf("commands in a pending statement: %d %q %q", code, out, errOut)
	}
	code, out, errOut = repl(".help\nRETRIEVE \"troponin\" LIMIT 1;\n")
	if code != 0 || !strings.Contains(out, `\json on|off`) || !strings.Contains(out, "[1]") {
		t.Fatalf(".help then a statement: %d %q %q", code, out, errOut)
	}
	if code, _, _ := repl("RETRIEVE \"x\" LIMT 1;\nRETRIEVE \"troponin\" LIMIT 1;\n"); code != 1 {
		t.Fatalf("piped input with a failed statement exited %d", code)
	}
}
