package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReadCommandsRefuseMissingStore: a mistyped --db (no such directory,
// or a directory with no store in it) is an error and creates nothing.
func TestReadCommandsRefuseMissingStore(t *testing.T) {
	for _, args := range [][]string{{"check"}, {"stats"}, {"export"}, {"show", "x"}, {"query", `RETRIEVE "x"`}, {"repl"}} {
		typo := filepath.Join(t.TempDir(), "typo")
		empty := t.TempDir()
		for _, dir := range []string{typo, empty} {
			code, _, errOut := cli(t, "", append(args, "--db", dir)...)
			if code != 1 || !strings.Contains(errOut, "store does not exist") {
				t.Errorf("%v --db %s: exit %d, %q", args, dir, code, errOut)
			}
		}
		if _, err := os.Stat(typo); !os.IsNotExist(err) {
			t.Errorf("%v created %s", args, typo)
		}
		if names, _ := os.ReadDir(empty); len(names) > 0 {
			t.Errorf("%v wrote into the empty directory: %v", args, names)
		}
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := cli(t, "", "--version")
	if code != 0 || !strings.HasPrefix(out, "medkb (devel) ") || !strings.Contains(out, runtime.Version()) {
		t.Fatalf("--version: %d %q", code, out)
	}
}

// TestUnknownSubcommand: a script that calls a command medkb lacks sees
// it fail, at the top and under a command that groups others.
func TestUnknownSubcommand(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"foo", `unknown command "foo" for "medkb"`},
		{"bench foo", `unknown command "foo" for "medkb bench"`},
		{"quer", `unknown command "quer" for "medkb"; did you mean query?`},
	} {
		code, _, errOut := cli(t, "", strings.Fields(tc.args)...)
		if code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("medkb %s: exit %d, %q", tc.args, code, errOut)
		}
	}
	if code, out, _ := cli(t, "", "bench"); code != 0 || !strings.Contains(out, "Available Commands") {
		t.Errorf("medkb bench: exit %d, %q", code, out)
	}
}

// TestDelete: delete prints what it removed, names the ids it did not
// find and then exits 1, and refuses a missing store.
func TestDelete(t *testing.T) {
	db := sampleStore(t)
	docs := stats(t, db)["docs"].(float64)
	code, out, errOut := cli(t, "", append([]string{"delete"}, append(db, "P001-lab-06", "no-such-doc")...)...)
	if code != 1 || !strings.Contains(out, "deleted 1 document(s)") || !strings.Contains(out, "P001-lab-06") ||
		!strings.Contains(errOut, "no such document: no-such-doc") {
		t.Fatalf("delete: %d %q %q", code, out, errOut)
	}
	if after := stats(t, db)["docs"].(float64); after != docs-1 {
		t.Fatalf("docs %v -> %v", docs, after)
	}
	if code, _, errOut := cli(t, "", append([]string{"show"}, append(db, "P001-lab-06")...)...); code != 1 || !strings.Contains(errOut, "no such document") {
		t.Fatalf("show after delete: %d %s", code, errOut)
	}
	if code, _, errOut := cli(t, "", append([]string{"delete"}, append(db, "P001-lab-06")...)...); code != 1 || !strings.Contains(errOut, "no such document: P001-lab-06") {
		t.Fatalf("delete again: %d %s", code, errOut)
	}
	missing := filepath.Join(t.TempDir(), "typo")
	if code, _, errOut := cli(t, "", "delete", "--db", missing, "x"); code != 1 || !strings.Contains(errOut, "store does not exist") {
		t.Fatalf("delete on a missing store: %d %s", code, errOut)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Fatal("delete created a store")
	}
}

// TestIngestStdin: "-" ingests JSON Lines from stdin, checked whole
// first: a bad line rejects all of it, naming stdin:line.
func TestIngestStdin(t *testing.T) {
	db := []string{"--db", filepath.Join(t.TempDir(), "kb")}
	good := `{"id":"s1","text":"troponin rose overnight"}` + "\n" + `{"id":"s2","text":"chest pain at rest"}` + "\n"
	code, out, errOut := cli(t, good, append([]string{"ingest"}, append(db, "-")...)...)
	if code != 0 || !strings.Contains(out, "stdin: ingested 2 document(s)") {
		t.Fatalf("ingest -: %d %q %q", code, out, errOut)
	}
	bad := `{"id":"s3","text":"fine"}` + "\n" + `{"id":"s4"` + "\n"
	code, _, errOut = cli(t, bad, append([]string{"ingest"}, append(db, "-")...)...)
	if code != 1 || !strings.Contains(errOut, "stdin:2:") || !strings.Contains(errOut, "nothing ingested") {
		t.Fatalf("ingest - of a bad line: %d %q", code, errOut)
	}
	if docs := stats(t, db)["docs"].(float64); docs != 2 {
		t.Fatalf("docs = %v, want 2", docs)
	}
	if code, _, errOut := cli(t, good, append([]string{"ingest"}, append(db, "-", "-")...)...); code != 1 || !strings.Contains(errOut, "given twice") {
		t.Fatalf("ingest - -: %d %q", code, errOut)
	}
}

// TestSkipBadSkipsWrongDimension: a "vector" of the wrong dimension is a
// bad line like any other: named by the check pass, skipped by --skip-bad.
func TestSkipBadSkipsWrongDimension(t *testing.T) {
	db := []string{"--db", filepath.Join(t.TempDir(), "kb")}
	in := `{"id":"d1","text":"troponin"}` + "\n" + `{"id":"d2","text":"pain","vector":[1,2,3],"embedder":"hash-v1"}` + "\n"
	code, _, errOut := cli(t, in, append([]string{"ingest"}, append(db, "-")...)...)
	if code != 1 || !strings.Contains(errOut, `stdin:2: "vector" has 3 dimensions`) {
		t.Fatalf("ingest: %d %q", code, errOut)
	}
	code, out, errOut := cli(t, in, append([]string{"ingest", "--skip-bad"}, append(db, "-")...)...)
	if code != 0 || !strings.Contains(out, "ingested 1 document(s)") || !strings.Contains(out, "1 bad line(s) skipped") ||
		!strings.Contains(errOut, `stdin:2: "vector" has 3 dimensions`) {
		t.Fatalf("ingest --skip-bad: %d %q %q", code, out, errOut)
	}
}

// TestFullHelp: these commands explain themselves with examples; the
// REPL's help lists its commands and where its history is kept.
func TestFullHelp(t *testing.T) {
	for _, name := range []string{"repl", "show", "stats", "export", "demo", "delete"} {
		code, out, _ := cli(t, "", name, "--help")
		if code != 0 || !strings.Contains(out, "Example") || strings.Count(out, "\n") < 12 {
			t.Errorf("%s --help: %d\n%s", name, code, out)
		}
	}
	_, out, _ := cli(t, "", "repl", "--help")
	for _, want := range []string{`\help`, `\json on|off`, `\explain on|off`, `\stats`, `\q`, ".medkb_history"} {
		if !strings.Contains(out, want) {
			t.Errorf("repl --help lacks %q", want)
		}
	}
}
