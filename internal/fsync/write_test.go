package fsync

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "graph.bin")
	stale, fresh := filepath.Join(dir, "graph.bin.tmp-1"), filepath.Join(dir, "graph.bin.tmp-2")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("left by a crashed writer"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	for _, data := range []string{"first", "second, longer"} {
		if err := WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != data {
			t.Fatalf("read %q, %v; want %q", got, err, data)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
			t.Fatalf("mode %v", fi.Mode())
		}
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale temporary file is still there: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a recent temporary file (another writer's) was removed: %v", err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("directory holds %d entries, want the file and the recent temporary one", len(ents))
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x"), nil, 0o644); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}
