package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestLostGenerationKeepsEveryDocument is the data-loss scenario
// and its class: CURRENT naming a generation without medkb.db, with an
// empty one, with a bbolt file that is not a medkb file, naming a
// generation that does not exist, empty, or naming no generation. In
// every case check, ingest and rebuild fail naming what is wrong, none of
// them creates a file or removes gen-000001, and once CURRENT is put back
// the store has every document.
func TestLostGenerationKeepsEveryDocument(t *testing.T) {
	db := sampleStore(t) // its cleanup checks the store again at the end
	kb := db[1]
	docs := stats(t, db)["docs"]
	current := filepath.Join(kb, "CURRENT")
	gen2 := filepath.Join(kb, "gen-000002")
	for _, c := range []struct {
		name    string
		current string
		setup   func() error
		want    string
	}{
		{"generation without medkb.db", "gen-000002", func() error { return nil },
			"gen-000002/medkb.db: the file is missing"},
		{"empty medkb.db", "gen-000002", func() error { return os.WriteFile(filepath.Join(gen2, "medkb.db"), nil, 0o644) },
			"gen-000002/medkb.db: the file is empty"},
		{"medkb.db that is not bbolt", "gen-000002", func() error {
			return os.WriteFile(filepath.Join(gen2, "medkb.db"), []byte(strings.Repeat("not bbolt ", 1000)), 0o644)
		},
			"meta page invalid"},
		{"medkb.db of another program", "gen-000002", func() error { return foreignBolt(filepath.Join(gen2, "medkb.db")) },
			"no meta bucket: not a medkb file"},
		{"missing generation", "gen-000003", nil, "CURRENT: names gen-000003, which does not exist"},
		{"empty CURRENT", "", nil, "CURRENT: empty"},
		{"CURRENT naming no generation", "latest", nil, `CURRENT: names "latest", not a generation`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.setup != nil {
				if err := os.MkdirAll(gen2, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := c.setup(); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(current, []byte(c.current+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"check"}, {"ingest", "../../testdata/corpus/docs.jsonl"}, {"rebuild", "--grace", "1ms"}, {"stats"}} {
				code, out, errOut := cli(t, "", append(args, db...)...)
				all := out + errOut
				if code != 1 || !strings.Contains(all, "store is corrupt") || !strings.Contains(all, c.want) ||
					strings.Contains(all, "no CURRENT file") {
					t.Errorf("%s: exit %d, want 1 and %q:\n%s", args[0], code, c.want, all)
				}
				if args[0] == "check" {
					t.Logf("check: %s", strings.TrimSpace(all))
				}
			}
			if st, err := os.Stat(filepath.Join(gen2, "medkb.db")); c.name == "generation without medkb.db" && err == nil {
				t.Errorf("a command created gen-000002/medkb.db (%d bytes)", st.Size())
			}
			if _, err := os.Stat(filepath.Join(kb, "gen-000001", "medkb.db")); err != nil {
				t.Fatalf("gen-000001 is gone: %v", err)
			}
			if err := os.WriteFile(current, []byte("gen-000001\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := stats(t, db)["docs"]; got != docs {
				t.Fatalf("%v documents after CURRENT was put back, want %v", got, docs)
			}
			os.RemoveAll(gen2)
		})
	}
}

// foreignBolt writes a valid bbolt file with a bucket that is not medkb's.
func foreignBolt(path string) error {
	db, err := bolt.Open(path, 0o644, nil)
	if err != nil {
		return err
	}
	err = db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucket([]byte("settings"))
		return err
	})
	return errors.Join(err, db.Close())
}

// A rebuild removes no generation holding more documents than the live
// one unless the live one was rebuilt from it: with CURRENT pointed at an
// empty generation it fails before building anything, saying which
// generation has the documents.
func TestRebuildRefusesToPruneBehindFewerDocuments(t *testing.T) {
	db := sampleStore(t)
	kb := db[1]
	// An empty store's generation, put in as gen-000002.
	empty := filepath.Join(t.TempDir(), "empty")
	if code, _, errOut := cli(t, "", "ingest", "--db", empty, "../../testdata/corpus/bad.jsonl", "--skip-bad"); code != 0 {
		t.Fatal(errOut)
	}
	if err := os.Rename(filepath.Join(empty, "gen-000001"), filepath.Join(kb, "gen-000002")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(kb, "CURRENT"), []byte("gen-000002\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cli(t, "", append([]string{"rebuild", "--grace", "1ms"}, db...)...)
	if code != 1 || !strings.Contains(errOut, "refusing to remove generations: gen-000001 holds 57 documents, the live generation gen-000002 only") {
		t.Fatalf("rebuild behind a generation with fewer documents: %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(kb, "gen-000001", "medkb.db")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(kb, "CURRENT"), []byte("gen-000001\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = cli(t, "", append([]string{"rebuild", "--grace", "1ms"}, db...)...)
	if code != 0 || !strings.Contains(out, "removed gen-000002") || !strings.Contains(out, "57 documents") {
		t.Fatalf("rebuild with CURRENT put back: %d\n%s%s", code, out, errOut)
	}
}

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
