package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestHistoryIsPrivate: the REPL's history names patients and findings,
// so it is written readable by its owner only, and a history an older
// medkb left readable by others is made private when it is saved.
func TestHistoryIsPrivate(t *testing.T) {
	for _, existing := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), ".medkb_history")
		if existing {
			if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, 0o644); err != nil { // past the umask
				t.Fatal(err)
			}
		}
		err := saveHistory(path, func(w io.Writer) (int, error) {
			return io.WriteString(w, `RETRIEVE "chest pain" WHERE patient = "P001";`+"\n")
		})
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm != 0o600 {
			t.Errorf("existing=%v: history mode %v, want -rw-------", existing, perm)
		}
		if b, _ := os.ReadFile(path); string(b) != `RETRIEVE "chest pain" WHERE patient = "P001";`+"\n" {
			t.Errorf("existing=%v: history holds %q", existing, b)
		}
	}
}
