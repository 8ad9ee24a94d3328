package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestBackup(t *testing.T) {
	db := sampleStore(t)
	dest := filepath.Join(t.TempDir(), "copy")
	code, out, errOut := cli(t, "", append([]string{"backup"}, append(db, dest)...)...)
	if code != 0 || !strings.Contains(out, "check ok") {
		t.Fatalf("backup: %d\n%s%s", code, out, errOut)
	}
	want, got := stats(t, db), stats(t, []string{"--db", dest})
	for _, k := range []string{"docs", "chunks", "vectors", "entities", "triples", "seq"} {
		if got[k] != want[k] {
			t.Errorf("%s: %v in the store, %v in the backup", k, want[k], got[k])
		}
	}
	if code, out, errOut := cli(t, "", "check", "--db", dest); code != 0 {
		t.Fatalf("check of the backup: %s%s", out, errOut)
	}
	code, _, errOut = cli(t, "", append([]string{"backup"}, append(db, dest)...)...)
	if code != 1 || !strings.Contains(errOut, "exists and is not empty") {
		t.Fatalf("backup over a backup: %d %s", code, errOut)
	}
}
