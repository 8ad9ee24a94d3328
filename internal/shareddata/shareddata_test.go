package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDirDefaultsBesideModuleRoot(t *testing.T) {
	t.Setenv("MEDKB_DATA", "")
	want, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "data"))
	if err != nil {
		t.Fatal(err)
	}
	if got := Dir(); got != want {
		t.Fatalf("Dir() = %q, want %q", got, want)
	}
}

func TestPathUnderMEDKBData(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "medqa"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MEDKB_DATA", root)
	if got, want := Path(t, "medqa"), filepath.Join(root, "medqa"); got != want {
		t.Fatalf("Path = %q, want %q", got, want)
	}
	reached := false
	t.Run("absent", func(t *testing.T) {
		Path(t, "medqa", "medqa_test.jsonl")
		reached = true
	})
	if reached {
		t.Fatal("Path did not skip for an absent file")
	}
}
