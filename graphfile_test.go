package medkb

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// expandNote runs an expanding EXPLAIN ANALYZE on db and returns the
// expansion's line of the plan, which says how the graph was opened.
func expandNote(t *testing.T, db *DB) string {
	t.Helper()
	plan, err := db.Explain(context.Background(), `EXPLAIN ANALYZE RETRIEVE "aspirin" EXPAND metapath "Drug -treats-> Symptom" LIMIT 5`)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(plan, "\n") {
		if strings.Contains(line, "graph ") && strings.Contains(line, "fired on aspirin") {
			return line
		}
	}
	t.Fatalf("no expansion that fired on aspirin in:\n%s", plan)
	return ""
}

// TestGraphFile: OpenGraph saves the graph's compact form; another
// process (a read-only DB) opens the graph from it; a graph write makes it
// stale; a damaged, cut or missing file is built again and replaced, with
// the reason in EXPLAIN ANALYZE, and never changes an answer.
func TestGraphFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	put := func(tail string) {
		t.Helper()
		tr := Triple{Head: "aspirin", HeadType: "Drug", Relation: "treats", Tail: tail, TailType: "Symptom"}
		if _, err := db.IngestGraph(ctx, nil, []Triple{tr}); err != nil {
			t.Fatal(err)
		}
	}
	put("headache")
	note, err := db.OpenGraph(ctx)
	if err != nil || !strings.Contains(note, "built from 1 triples") || !strings.Contains(note, "saved graph.bin") {
		t.Fatalf("OpenGraph: %q, %v", note, err)
	}
	put("fever") // graph.bin is now one write behind
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "gen-000001", graphFile)
	reader := func(want string) {
		t.Helper()
		ro, err := Open(dir, &Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		if line := expandNote(t, ro); !strings.Contains(line, want) || !strings.Contains(line, "2 path(s)") {
			t.Errorf("want %q and 2 paths in: %s", want, line)
		}
	}
	reader("graph.bin is as of graph write 1 (2 entities, 1 triples), the store is at write 2 (3, 2)")
	reader("graph read from graph.bin")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		damage func() error
		want   string
	}{
		{func() error { d := append([]byte{}, b...); d[len(d)-1] ^= 1; return os.WriteFile(file, d, 0o644) }, "graph.bin is damaged (checksum mismatch)"},
		{func() error { return os.WriteFile(file, b[:10], 0o644) }, "graph.bin is damaged or of another version"},
		{func() error { return os.Remove(file) }, "graph.bin is missing"},
	} {
		if err := c.damage(); err != nil {
			t.Fatal(err)
		}
		reader(c.want)
		reader("graph read from graph.bin")
	}
}
