package golden

import (
	"errors"
	"io/fs"
	"os"
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

func TestCheckSection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.md")
	const doc = "# Title\n\nprose\n<!-- generated: tiers -->\n| old |\n<!-- end generated: tiers -->\nmore prose\n"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkSection(path, "tiers", "| old |\n", false); err != nil {
		t.Fatalf("same content: %v", err)
	}
	err := checkSection(path, "tiers", "| new |\n", false)
	if err == nil || !strings.Contains(err.Error(), "differs from line 5") {
		t.Fatalf("changed content: %v", err)
	}
	if err := checkSection(path, "rules", "x\n", false); err == nil || !strings.Contains(err.Error(), "no line") {
		t.Fatalf("missing marker: %v", err)
	}
	if err := checkSection(path, "tiers", "| new |", true); err != nil {
		t.Fatalf("rewrite: %v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(doc, "| old |", "| new |", 1); string(data) != want {
		t.Fatalf("rewritten file:\n%s\nwant:\n%s", data, want)
	}
	if err := checkSection(path, "tiers", "| new |\n", false); err != nil {
		t.Fatalf("after rewrite: %v", err)
	}
}

func TestLineIndex(t *testing.T) {
	for _, c := range []struct {
		text, line string
		want       int
	}{
		{"a\nb\n", "b\n", 2},
		{"xb\nb\n", "b\n", 3},
		{"b\n", "b\n", 0},
		{"xb\n", "b\n", -1},
	} {
		if got := lineIndex(c.text, c.line); got != c.want {
			t.Errorf("lineIndex(%q, %q) = %d, want %d", c.text, c.line, got, c.want)
		}
	}
}
