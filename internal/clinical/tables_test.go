package clinical

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden files under testdata")

// TestWriteTables pins the Markdown the README prints, so any change to a
// table or rule shows up in review as a diff of testdata/tables.md.
func TestWriteTables(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTables(&buf); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "tables.md")
	if *rewrite {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestWriteTables -rewrite to create it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("WriteTables output differs from %s; run go test -run TestWriteTables -rewrite and review the diff", golden)
	}
}

func TestWriteTablesError(t *testing.T) {
	if err := WriteTables(failingWriter{}); err == nil {
		t.Error("WriteTables to a failing writer returned no error")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }
