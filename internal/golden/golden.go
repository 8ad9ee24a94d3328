package golden

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite golden files under testdata/ with the current outputs")

// Case is one case of a golden file.
type Case struct {
	Line  int               // line of the command, from 1
	Cmd   string            // first word of the command line
	Args  map[string]string // key=value words after it (a bare word maps to "")
	Input string            // lines between the command and "----"
	Want  string            // expected output
	head  string            // comment lines and the command line as written
}

// Run runs every case of path through fn, comparing outputs; with
// -rewrite it writes the file back with the outputs fn produced.
func Run(t *testing.T, path string, fn func(t *testing.T, c *Case) string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := Parse(string(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out strings.Builder
	for i, c := range cases {
		got := strings.TrimRight(fn(t, c), "\n")
		if !*rewrite && got != c.Want {
			t.Errorf("%s:%d: %s\n%s\n--- got:\n%s\n--- want:\n%s", path, c.Line, c.Cmd, c.Input, got, c.Want)
		}
		if i > 0 {
			out.WriteByte('\n') // a blank line between cases, for the reader
		}
		out.WriteString(c.head + c.Input + "\n----\n" + got + "\n====\n")
	}
	if *rewrite {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Parse splits a golden file into cases.
func Parse(data string) ([]*Case, error) {
	lines := strings.Split(strings.TrimRight(data, "\n"), "\n")
	var cases []*Case
	var head strings.Builder
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" && head.Len() == 0 {
			continue
		}
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			head.WriteString(l + "\n")
			continue
		}
		c := &Case{Line: i + 1, Args: map[string]string{}}
		words := strings.Fields(l)
		c.Cmd = words[0]
		for _, w := range words[1:] {
			k, v, _ := strings.Cut(w, "=")
			c.Args[k] = v
		}
		head.WriteString(l + "\n")
		c.head = head.String()
		head.Reset()
		var in, want []string
		j := i + 1
		for ; j < len(lines) && lines[j] != "----"; j++ {
			in = append(in, lines[j])
		}
		if j == len(lines) {
			return nil, fmt.Errorf("line %d: case %q has no ---- separator", c.Line, c.Cmd)
		}
		for j++; j < len(lines) && lines[j] != "===="; j++ {
			want = append(want, lines[j])
		}
		c.Input = strings.Join(in, "\n")
		c.Want = strings.Join(want, "\n")
		cases = append(cases, c)
		i = j
	}
	return cases, nil
}

// File compares got with the whole content of the file at path; with
// -rewrite it writes got there instead.
func File(t *testing.T, path, got string) {
	t.Helper()
	if err := checkFile(path, got, *rewrite); err != nil {
		t.Error(err)
	}
}

// checkFile is File's work, apart from the test: an error when got is not
// what path holds (or, rewriting, when path cannot be written).
func checkFile(path, got string, rewriting bool) error {
	if rewriting {
		return os.WriteFile(path, []byte(got), 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%w (run go test -rewrite to create it)", err)
	}
	if got != string(want) {
		n, g, w := firstDiff(got, string(want))
		return fmt.Errorf("%s differs from line %d on (run go test -rewrite to accept):\n--- got:\n%s\n--- want:\n%s", path, n, g, w)
	}
	return nil
}

// firstDiff returns the number (from 1) of the first line at which a and
// b differ, and that line of each, or "(end of file)" where one has no
// such line.
func firstDiff(a, b string) (int, string, string) {
	la, lb := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
	i := 0
	for i < len(la) && i < len(lb) && la[i] == lb[i] {
		i++
	}
	at := func(lines []string) string {
		if i >= len(lines) || lines[i] == "" {
			return "(end of file)"
		}
		if l, ok := strings.CutSuffix(lines[i], "\n"); ok {
			return l
		}
		return lines[i] + " (no newline at end of file)"
	}
	return i + 1, at(la), at(lb)
}
