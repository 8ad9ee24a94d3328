package golden

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases, err := Parse("# about\n\nrun a=1 b\nline one\nline two\n----\nout\n\nmore\n====\nnext\n----\n====\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 {
		t.Fatalf("%d cases", len(cases))
	}
	c := cases[0]
	if c.Cmd != "run" || c.Args["a"] != "1" || c.Args["b"] != "" || c.Input != "line one\nline two" || c.Want != "out\n\nmore" || c.Line != 3 {
		t.Fatalf("case 0: %+v", c)
	}
	if c.head != "# about\n\nrun a=1 b\n" {
		t.Fatalf("head %q", c.head)
	}
	if cases[1].Input != "" || cases[1].Want != "" {
		t.Fatalf("case 1: %+v", cases[1])
	}
	if _, err := Parse("run\nno separator\n"); err == nil {
		t.Fatal("missing separator accepted")
	}
}

func TestCheckFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.svg")
	if err := checkFile(path, "<svg/>\n", false); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	if err := checkFile(path, "<svg/>\n", true); err != nil {
		t.Fatalf("rewrite: %v", err)
	}
	if err := checkFile(path, "<svg/>\n", false); err != nil {
		t.Fatalf("same content: %v", err)
	}
	err := checkFile(path, "<svg></svg>\n", false)
	if err == nil || !strings.Contains(err.Error(), "out.svg differs") {
		t.Fatalf("changed content: %v", err)
	}
	if err := checkFile(path, "<svg/>", false); err == nil {
		t.Fatal("a missing final newline went unnoticed")
	}
}

func TestFirstDiff(t *testing.T) {
	for _, c := range []struct {
		a, b, wantA, wantB string
		line               int
	}{
		{"x\ny\nz\n", "x\nY\nz\n", "y", "Y", 2},
		{"x\ny\n", "x\ny\nz\n", "(end of file)", "z", 3},
		{"x\ny", "x\ny\n", "y (no newline at end of file)", "y", 2},
		{"", "x\n", "(end of file)", "x", 1},
	} {
		line, a, b := firstDiff(c.a, c.b)
		if line != c.line || a != c.wantA || b != c.wantB {
			t.Errorf("firstDiff(%q, %q) = %d %q %q, want %d %q %q", c.a, c.b, line, a, b, c.line, c.wantA, c.wantB)
		}
	}
}
