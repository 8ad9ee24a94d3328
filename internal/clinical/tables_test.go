package clinical

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/golden"
)

// TestWriteTables keeps the tier, rule and vocabulary tables of
// docs/ingest.md equal to what WriteTables prints from the tables the
// classifier and the compressor run, so a change to a type, a rule or a
// word fails here until `go test ./internal/clinical -run TestWriteTables
// -rewrite` copies it into the document, and shows in review as its diff.
func TestWriteTables(t *testing.T) {
	var buf strings.Builder
	if err := WriteTables(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Section(t, filepath.Join("..", "..", "docs", "ingest.md"), "clinical tables", buf.String())
}

func TestWriteTablesError(t *testing.T) {
	if err := WriteTables(failingWriter{}); err == nil {
		t.Error("WriteTables to a failing writer returned no error")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }
