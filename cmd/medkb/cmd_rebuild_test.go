package main

import (
	"strings"
	"testing"
	"time"

	"github.com/medkb/medkb/store"
)

func TestRebuild(t *testing.T) {
	db := sampleStore(t)
	before := stats(t, db)
	code, out, errOut := cli(t, "", append([]string{"rebuild", "--grace", "10ms"}, db...)...)
	if code != 0 || !strings.Contains(out, "rebuilt gen-000001 -> gen-000002") || !strings.Contains(out, "removed gen-000001") {
		t.Fatalf("rebuild: %d\n%s%s", code, out, errOut)
	}
	after := stats(t, db)
	for _, k := range []string{"docs", "chunks", "vectors", "entities", "triples"} {
		if after[k] != before[k] {
			t.Errorf("%s: %v before the rebuild, %v after", k, before[k], after[k])
		}
	}
	if after["generation"] != "gen-000002" {
		t.Errorf("generation after rebuild: %v", after["generation"])
	}
}

// A rebuild beside a writer fails within --lock-timeout with a clear error.
func TestRebuildLocked(t *testing.T) {
	db := sampleStore(t)
	lock, err := store.LockWriter(db[1], time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	start := time.Now()
	code, _, errOut := cli(t, "", append([]string{"rebuild", "--lock-timeout", "200ms"}, db...)...)
	if code != 1 || !strings.Contains(errOut, "store is locked by another process") {
		t.Fatalf("rebuild beside a writer: %d %s", code, errOut)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("rebuild waited %s with --lock-timeout 200ms", took)
	}
}
