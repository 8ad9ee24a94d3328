package bm25

import (
	"path/filepath"
	"testing"
)

// openTemp opens a new read-write index in a temporary directory, closed
// when the test ends.
func openTemp(tb testing.TB) *Index {
	tb.Helper()
	ix, err := Open(filepath.Join(tb.TempDir(), "bm25"), nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := ix.Close(); err != nil {
			tb.Error(err)
		}
	})
	return ix
}
