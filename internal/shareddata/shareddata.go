package shareddata

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
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

// ReadTSV returns the first two tab-separated fields of every line of
// path (a collection's "id<TAB>text" documents or queries).
func ReadTSV(tb testing.TB, path string) (ids, texts []string) {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		id, text, ok := strings.Cut(sc.Text(), "\t")
		if ok {
			ids, texts = append(ids, id), append(texts, text)
		}
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return ids, texts
}
