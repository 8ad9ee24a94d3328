// Package golden runs table tests kept in text files under testdata/, in
// the spirit of cockroachdb/datadriven: each case is a command line, its
// input, a "----" separator and the expected output, ending at a "===="
// line. Outputs may hold blank lines. `go test ./... -rewrite` rewrites the
// files with the outputs the code now produces, so a change of behaviour
// shows up as a diff in review.
//
//	# a comment
//	explain budget=64
//	RETRIEVE "chest pain"
//	----
//	-> Pack ...
//	====
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
