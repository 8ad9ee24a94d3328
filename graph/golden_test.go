package graph

import (
	"flag"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden files in testdata/")

// goldenCase is one case of a golden file:
//
//	command arg=value ...
//	input lines
//	----
//	output lines
//	(blank line)
//
// Lines starting with '#' between cases are comments. Outputs never hold
// blank lines, so a blank line ends a case.
type goldenCase struct {
	line  int // of the command, from 1
	cmd   string
	args  map[string]string
	input string
	want  string
}

// runGolden runs every case of testdata/name through run and compares the
// output; with -rewrite it writes the outputs back instead.
func runGolden(t *testing.T, name string, run func(t *testing.T, c goldenCase) string) {
	t.Helper()
	path := "testdata/" + name
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases, comments := parseGolden(t, string(data))
	var out strings.Builder
	for i, c := range cases {
		if comments[i] != "" {
			out.WriteString(comments[i] + "\n")
		}
		got := strings.TrimRight(run(t, c), "\n")
		if strings.Contains(got, "\n\n") {
			t.Fatalf("%s:%d: output holds a blank line:\n%s", path, c.line, got)
		}
		if !*rewrite && got != c.want {
			t.Errorf("%s:%d: %s\n%s\ngot:\n%s\nwant:\n%s", path, c.line, c.cmd, c.input, got, c.want)
		}
		out.WriteString(c.header() + c.input + "\n----\n" + got + "\n\n")
	}
	out.WriteString(comments[len(cases)])
	if *rewrite {
		if err := os.WriteFile(path, []byte(strings.TrimRight(out.String(), "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func (c goldenCase) header() string {
	h := c.cmd
	for _, k := range sortedKeys(c.args) {
		h += " " + k + "=" + c.args[k]
	}
	return h + "\n"
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }

// parseGolden splits a golden file into cases and the comment text before
// each case (and after the last one).
func parseGolden(t *testing.T, text string) ([]goldenCase, []string) {
	t.Helper()
	lines := strings.Split(text, "\n")
	var cases []goldenCase
	var comments []string
	var comment strings.Builder
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l == "" || strings.HasPrefix(l, "#") {
			if l != "" {
				comment.WriteString(l + "\n")
			}
			continue
		}
		c := goldenCase{line: i + 1, args: map[string]string{}}
		fields := strings.Fields(l)
		c.cmd = fields[0]
		for _, f := range fields[1:] {
			k, v, _ := strings.Cut(f, "=")
			c.args[k] = v
		}
		var in, want []string
		for i++; i < len(lines) && lines[i] != "----"; i++ {
			in = append(in, lines[i])
		}
		if i == len(lines) {
			t.Fatalf("line %d: case has no ---- line", c.line)
		}
		for i++; i < len(lines) && lines[i] != ""; i++ {
			want = append(want, lines[i])
		}
		c.input, c.want = strings.Join(in, "\n"), strings.Join(want, "\n")
		cases = append(cases, c)
		comments = append(comments, comment.String())
		comment.Reset()
	}
	comments = append(comments, comment.String())
	return cases, comments
}
