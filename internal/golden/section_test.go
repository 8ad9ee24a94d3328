package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
