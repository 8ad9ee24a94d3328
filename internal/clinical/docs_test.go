package clinical

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/golden"
)

// TestDocsTables keeps the tier, rule and vocabulary tables of
// docs/ingest.md equal to what WriteTables prints from the tables the
// classifier and the compressor run: a change to a type, a rule or a word
// fails here until `go test ./internal/clinical -run TestDocsTables
// -rewrite` copies it into the document.
func TestDocsTables(t *testing.T) {
	var buf strings.Builder
	if err := WriteTables(&buf); err != nil {
		t.Fatal(err)
	}
	golden.Section(t, filepath.Join("..", "..", "docs", "ingest.md"), "clinical tables", buf.String())
}
