package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/damage"
)

// TestIngestOnAFullDisk: a file of several batches that the disk has no
// room for is refused before anything is written; forced with
// --no-space-check it writes batch by batch until the disk is full, says
// which documents stay committed, and the store still reads and checks.
func TestIngestOnAFullDisk(t *testing.T) {
	defer func(n int) { docBatch = n }(docBatch)
	docBatch = 20
	kb := filepath.Join(t.TempDir(), "kb")
	damage.Tmpfs(t, kb, "3m")
	db := []string{"--db", kb}
	dir := t.TempDir()
	var in strings.Builder
	for i := range 400 {
		fmt.Fprintf(&in, "{\"id\": \"d%03d\", \"text\": %q}\n", i, strings.Repeat(fmt.Sprintf("Note %d: chest pain, troponin %d ng/mL. ", i, i%7), 60))
	}
	writeFiles(t, dir, map[string]string{
		"first.jsonl": `{"id": "first", "text": "Allergy: penicillin (anaphylaxis)."}` + "\n",
		"big.jsonl":   in.String(),
	})
	if code, out, errOut := cli(t, "", append(append([]string{"ingest"}, db...), filepath.Join(dir, "first.jsonl"))...); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	code, _, errOut := cli(t, "", append(append([]string{"ingest"}, db...), filepath.Join(dir, "big.jsonl"))...)
	if code != 1 || !strings.Contains(errOut, "big.jsonl rejected, nothing ingested: its 400 documents need about") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if m := stats(t, db); m["docs"] != 1.0 || m["seq"] != 1.0 {
		t.Fatalf("a refused file wrote: %v", m)
	}
	code, _, errOut = cli(t, "", append(append([]string{"ingest", "--no-space-check"}, db...), filepath.Join(dir, "big.jsonl"))...)
	if code != 1 || !strings.Contains(errOut, "no space left on device") || !strings.Contains(errOut, "were written and stay committed") {
		t.Fatalf("forced ingest on a full disk: exit %d: %s", code, errOut)
	}
	t.Logf("forced: %s", strings.TrimSpace(errOut))
	m := stats(t, db)
	if docs := m["docs"].(float64); docs < 1 || int(docs-1)%docBatch != 0 {
		t.Fatalf("%v documents: not the first one and whole batches", docs)
	}
	// The next batch was being prepared while the failed one committed:
	// the message still names the failed batch.
	var written, line int
	if _, err := fmt.Sscanf(errOut[strings.Index(errOut, "its first "):], "its first %d document(s), before line %d", &written, &line); err != nil ||
		written != int(m["docs"].(float64))-1 || line != written+1 {
		t.Errorf("the message says %d written before line %d (%v); the store has %v documents besides the first", written, line, err, m["docs"].(float64)-1)
	}
	for _, args := range [][]string{{"show", "first"}, {"export"}} {
		if code, _, errOut := cli(t, "", append(args, db...)...); code != 0 {
			t.Errorf("%s on the full disk: %s", args[0], errOut)
		}
	}
	damage.GrowTmpfs(t, kb, "64m")
	if code, out, errOut := cli(t, "", append([]string{"check"}, db...)...); code != 0 {
		t.Fatalf("check once there is room: exit %d\n%s%s", code, out, errOut)
	}
}
