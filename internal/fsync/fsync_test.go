package fsync

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPath(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, file} {
		if err := Path(p); err != nil {
			t.Errorf("Path(%s): %v", p, err)
		}
	}
	if err := Path(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("missing path: %v", err)
	}
}
