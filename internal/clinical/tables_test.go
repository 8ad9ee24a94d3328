package clinical

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/golden"
)

// TestWriteTables pins the Markdown docs/ingest.md carries, so any change to
// a table or rule shows up in review as a diff of testdata/tables.md.
func TestWriteTables(t *testing.T) {
	var buf strings.Builder
	if err := WriteTables(&buf); err != nil {
		t.Fatal(err)
	}
	golden.File(t, filepath.Join("testdata", "tables.md"), buf.String())
}

func TestWriteTablesError(t *testing.T) {
	if err := WriteTables(failingWriter{}); err == nil {
		t.Error("WriteTables to a failing writer returned no error")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }
