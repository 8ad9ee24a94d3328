package shareddata

import (
	"os"
	"path/filepath"
	"testing"
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
