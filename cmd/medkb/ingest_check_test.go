package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/medkb/medkb"
)

// An ingest reads and checks its files before it opens the store
// read-write: beside a reader, a bad file is rejected for its bad line at
// once, and a good one waits for the reader and names it.
func TestIngestChecksBeforeTheWriterLock(t *testing.T) {
	db := sampleStore(t)
	reader, err := medkb.Open(db[1], &medkb.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte(`{"id":"x1","text":"ok"}`+"\n"+`{"id":"x2"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := cli(t, "", append([]string{"ingest", "--lock-timeout", "200ms"}, append(db, bad)...)...)
	if code != 1 || !strings.Contains(errOut, "bad.jsonl rejected, nothing ingested") || strings.Contains(errOut, "locked") {
		t.Fatalf("bad file beside a reader: exit %d: %s", code, errOut)
	}
	good := filepath.Join(t.TempDir(), "good.jsonl")
	if err := os.WriteFile(good, []byte(`{"id":"x1","text":"ok"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = cli(t, "", append([]string{"ingest", "--lock-timeout", "200ms"}, append(db, good)...)...)
	if code != 1 || !strings.Contains(errOut, "store is locked") || !strings.Contains(errOut, "readers: pid "+strconv.Itoa(os.Getpid())) {
		t.Fatalf("good file beside a reader: exit %d: %s", code, errOut)
	}
}
