package dsl

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/medkb/medkb/internal/golden"
)

// The golden files under testdata use the shared runner: a command word
// (print, check or error), the statement, "----", the output, "====".
// `go test ./dsl -rewrite` regenerates the outputs.

// runGolden runs every case of testdata/name, which must all be cmd cases,
// through run.
func runGolden(t *testing.T, name, cmd string, run func(t *testing.T, input string) string) {
	t.Helper()
	golden.Run(t, filepath.Join("testdata", name), func(t *testing.T, c *golden.Case) string {
		if c.Cmd != cmd {
			t.Fatalf("testdata/%s:%d: command %q in a file of %q cases", name, c.Line, c.Cmd, cmd)
		}
		return run(t, c.Input)
	})
}

// rewriting reports whether the run was asked to rewrite goldens; the flag
// belongs to internal/golden, and the EBNF golden, a plain file, honours
// it too.
func rewriting() bool {
	f := flag.Lookup("rewrite")
	return f != nil && f.Value.String() == "true"
}

// goldenInputs returns the statements of every golden file, for fuzz seeds.
func goldenInputs(tb testing.TB) []string {
	var inputs []string
	for _, name := range []string{"print", "errors", "check", "params"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			tb.Fatal(err)
		}
		cases, err := golden.Parse(string(data))
		if err != nil {
			tb.Fatalf("testdata/%s: %v", name, err)
		}
		for _, c := range cases {
			inputs = append(inputs, c.Input)
		}
	}
	return inputs
}
