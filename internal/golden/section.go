package golden

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Section compares got with the part of the file at path that lies
// between the lines "<!-- generated: NAME -->" and "<!-- end generated:
// NAME -->"; with -rewrite it puts got there instead and leaves the rest
// of the file as it was. It keeps a generated table inside a hand-written
// document (docs/*.md) equal to what the code prints.
func Section(t *testing.T, path, name, got string) {
	t.Helper()
	if err := checkSection(path, name, got, *rewrite); err != nil {
		t.Error(err)
	}
}

// checkSection is Section's work, apart from the test.
func checkSection(path, name, got string, rewriting bool) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text := string(data)
	begin, end := "<!-- generated: "+name+" -->\n", "<!-- end generated: "+name+" -->\n"
	i := lineIndex(text, begin)
	if i < 0 {
		return fmt.Errorf("%s has no line %q to mark where %s begins", path, strings.TrimSpace(begin), name)
	}
	i += len(begin)
	j := lineIndex(text[i:], end)
	if j < 0 {
		return fmt.Errorf("%s has no line %q after the one that begins %s", path, strings.TrimSpace(end), name)
	}
	j += i
	if got != "" && !strings.HasSuffix(got, "\n") {
		got += "\n"
	}
	if rewriting {
		return os.WriteFile(path, []byte(text[:i]+got+text[j:]), 0o644)
	}
	if want := text[i:j]; got != want {
		n, g, w := firstDiff(got, want)
		first := strings.Count(text[:i], "\n") + 1
		return fmt.Errorf("%s: %s differs from line %d of the file on (run go test -rewrite to accept):\n--- got:\n%s\n--- want:\n%s", path, name, first+n-1, g, w)
	}
	return nil
}

// lineIndex is the byte offset of line (which ends in a newline) where it
// stands as a whole line of text, or -1.
func lineIndex(text, line string) int {
	for off := 0; ; {
		k := strings.Index(text[off:], line)
		if k < 0 {
			return -1
		}
		if at := off + k; at == 0 || text[at-1] == '\n' {
			return at
		}
		off += k + 1
	}
}
