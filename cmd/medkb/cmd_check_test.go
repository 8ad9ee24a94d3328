package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// segmentsOf returns the BM25 segment files of the store named by db.
func segmentsOf(t *testing.T, db []string) []string {
	t.Helper()
	zaps, err := filepath.Glob(filepath.Join(db[1], "gen-000001", "bm25", "store", "*.zap"))
	if err != nil || len(zaps) == 0 {
		t.Fatalf("no BM25 segments: %v", err)
	}
	return zaps
}

// The acceptance: with one BM25 file deleted, stats, show and
// export work; query says how to fix it; check rebuilds the index from the
// store, says so, and exits 0; queries answer again.
func TestDeletedSegment(t *testing.T) {
	db := sampleStore(t)
	if err := os.Remove(segmentsOf(t, db)[0]); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"stats"}, {"show", "P001-lab-06"}, {"export"}} {
		if code, out, errOut := cli(t, "", append(args, db...)...); code != 0 || out == "" {
			t.Errorf("%s with a segment deleted: exit %d\n%s", args[0], code, errOut)
		}
	}
	code, _, errOut := cli(t, "", append([]string{"query", `RETRIEVE "chest pain"`}, db...)...)
	if code != 1 || !strings.Contains(errOut, "BM25 index") || !strings.Contains(errOut, "medkb check --db "+db[1]) {
		t.Errorf("query with a segment deleted: exit %d\n%s", code, errOut)
	}
	code, out, errOut := cli(t, "", append([]string{"check"}, db...)...)
	if code != 0 || !strings.Contains(errOut, "medkb: repaired:") || !strings.HasPrefix(out, "ok:") {
		t.Fatalf("check: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := cli(t, "", append([]string{"query", `RETRIEVE "chest pain"`}, db...)...); code != 0 {
		t.Errorf("query after check: %s", errOut)
	}
}

// Damage no open notices (one garbled byte in a segment): check finds it
// by the segment's checksum, rebuilds the index and exits 0.
func TestCheckRepairsGarbledSegment(t *testing.T) {
	db := sampleStore(t)
	zap := segmentsOf(t, db)[0]
	b, err := os.ReadFile(zap)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x5a
	if err := os.WriteFile(zap, b, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cli(t, "", append([]string{"check"}, db...)...)
	if code != 0 || !strings.Contains(errOut, "checksum") || !strings.Contains(errOut, "medkb: repaired: rebuilt the BM25 index") ||
		!strings.HasPrefix(out, "ok:") {
		t.Fatalf("check: exit %d\n%s%s", code, out, errOut)
	}
}
