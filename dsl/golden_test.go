package dsl

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden files under testdata from the current output")

// A golden file is a list of cases in the style of cockroachdb/datadriven:
//
//	# optional comment lines
//	<input: one or more lines, ending at a line "----">
//	----
//	<expected output: lines up to the next blank line>
//
// Blank lines separate cases. Run `go test ./dsl -rewrite` to regenerate
// the outputs; comments and inputs are kept.
type goldenCase struct {
	comment string // "# ..." lines before the input, newline-terminated
	input   string
	output  string
	line    int // of the input's first line, for messages
}

func readGolden(tb testing.TB, path string) []goldenCase {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	cases, err := parseGolden(string(data))
	if err != nil {
		tb.Fatalf("%s:%v", path, err)
	}
	return cases
}

func parseGolden(data string) ([]goldenCase, error) {
	lines := strings.Split(strings.TrimSuffix(data, "\n"), "\n")
	var cases []goldenCase
	for i := 0; i < len(lines); {
		if lines[i] == "" {
			i++
			continue
		}
		var c goldenCase
		for ; i < len(lines) && strings.HasPrefix(lines[i], "#"); i++ {
			c.comment += lines[i] + "\n"
		}
		c.line = i + 1
		start := i
		for i < len(lines) && lines[i] != "----" {
			i++
		}
		if i == len(lines) {
			return nil, fmt.Errorf("%d: case without a ---- line", c.line)
		}
		c.input = strings.Join(lines[start:i], "\n")
		i++
		start = i
		for i < len(lines) && lines[i] != "" {
			i++
		}
		c.output = strings.Join(lines[start:i], "\n")
		cases = append(cases, c)
	}
	return cases, nil
}

// runGolden runs each case of path through run and compares (or, with
// -rewrite, replaces) the outputs.
func runGolden(t *testing.T, path string, run func(t *testing.T, input string) string) {
	t.Helper()
	cases := readGolden(t, path)
	var out strings.Builder
	for i, c := range cases {
		got := run(t, c.input)
		if strings.Contains(got, "\n\n") || got == "" {
			t.Fatalf("%s:%d: output has a blank line, which the golden format cannot hold:\n%s", path, c.line, got)
		}
		if !*rewrite && got != c.output {
			t.Errorf("%s:%d:\n%s\n---- got:\n%s\n---- want:\n%s", path, c.line, c.input, got, c.output)
		}
		if i > 0 {
			out.WriteString("\n")
		}
		out.WriteString(c.comment + c.input + "\n----\n" + got + "\n")
	}
	if *rewrite {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// goldenInputs returns the inputs of every golden file, for fuzz seeds.
func goldenInputs(tb testing.TB) []string {
	var inputs []string
	for _, name := range []string{"print", "errors", "check"} {
		for _, c := range readGolden(tb, filepath.Join("testdata", name)) {
			inputs = append(inputs, c.input)
		}
	}
	return inputs
}
