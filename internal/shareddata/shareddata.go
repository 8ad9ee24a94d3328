package shareddata

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/medkb/medkb/internal/ireval"
)

// Dir returns the data folder: $MEDKB_DATA, or shared/data beside the
// module root. It does not check that the folder exists.
func Dir() string {
	if d := os.Getenv("MEDKB_DATA"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared", "data")
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(dir), "shared", "data")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return filepath.Join("..", "shared", "data")
		}
		dir = parent
	}
}

// Path returns the path of a file or folder in the data folder, joined
// from parts, and skips tb when nothing is there.
func Path(tb testing.TB, parts ...string) string {
	tb.Helper()
	path := filepath.Join(append([]string{Dir()}, parts...)...)
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("public data absent (set MEDKB_DATA to the shared data folder): %v", err)
	}
	return path
}

// ReadTSV returns the ids and texts of the "id<TAB>text" lines of path
// (a collection's documents or queries; ireval.ReadPairs).
func ReadTSV(tb testing.TB, path string) (ids, texts []string) {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	err = ireval.ReadPairs(f, func(id, text string) error {
		ids, texts = append(ids, id), append(texts, text)
		return nil
	})
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return ids, texts
}
