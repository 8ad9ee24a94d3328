package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/shareddata"
)

// writeFiles creates files under dir from relative path -> content.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// hetionetLike is a small directory in the layout of
// ../shared/data/hetionet: node and edge TSVs, Hetionet's metadata tables
// and files of other types.
var hetionetLike = map[string]string{
	"hetio/README.md":                      "# Hetionet\n",
	"hetio/hetionet-v1.0-metagraph.json":   "{\n  \"metanode_kinds\": [\"Compound\", \"Gene\"]\n}\n",
	"hetio/metaedges.tsv":                  "metaedge\tabbreviation\tedges\tsource_nodes\ttarget_nodes\tunbiased\nCompound - binds - Gene\tCbG\t2\t1\t2\t0\nGene > regulates > Gene\tGr>G\t1\t1\t1\t1\n",
	"hetio/metanodes.tsv":                  "metanode\tabbreviation\tmetaedges\tnodes\tunconnected_nodes\nCompound\tC\t1\t1\t0\n",
	"hetio/nodes.tsv":                      "id\tname\tkind\nCompound::DB1\tAspirin\tCompound\nGene::1\tPTGS1\tGene\nGene::2\tPTGS2\tGene\n",
	"subset/metaedges.tsv":                 "id\tsource\ttarget\tverb\tmetaedge\r\nCbG\tCompound\tGene\tBinds\tCompound_Binds_Gene\r\n",
	"subset/edges/Compound_Binds_Gene.tsv": ":START_ID(Compound)\t:END_ID(Gene)\r\nDB1\t1\r\nDB1\t2\r\n",
	"subset/edges/Gene_Covaries_Gene.tsv":  ":START_ID(Gene)\t:END_ID(Gene)\r\n1\t2\r\n",
}

// TestIngestHetionetLikeDirectory: `medkb ingest DIR` reads the data files
// of a Hetionet-like directory, edges after nodes, and skips with a note
// the metadata tables and the files that are not .jsonl or .tsv.
func TestIngestHetionetLikeDirectory(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, hetionetLike)
	db := []string{"--db", filepath.Join(t.TempDir(), "kb")}
	code, out, errOut := cli(t, "", append(append([]string{"ingest"}, db...), dir)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"skipping " + filepath.Join(dir, "hetio/metaedges.tsv") + ": Hetionet metadata",
		"skipping " + filepath.Join(dir, "hetio/metanodes.tsv") + ": Hetionet metadata",
		"skipping " + filepath.Join(dir, "subset/metaedges.tsv") + ": Hetionet metadata",
		"skipping 2 file(s) in " + dir + " that are not .jsonl or .tsv",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if m := stats(t, db); m["entities"] != 3.0 || m["triples"] != 4.0 {
		t.Fatalf("store has %v entities and %v triples, want 3 and 4 (covaries both ways)\n%s", m["entities"], m["triples"], out)
	}
	// Named on the command line, a metadata table is an error.
	code, _, errOut = cli(t, "", append(append([]string{"ingest"}, db...), filepath.Join(dir, "hetio/metaedges.tsv"))...)
	if code != 1 || !strings.Contains(errOut, "Hetionet metadata") {
		t.Fatalf("explicit metaedges.tsv: exit %d: %s", code, errOut)
	}
}

// TestIngestEdgesNamedFirst: edge files named before their node files
// are read after them.
func TestIngestEdgesNamedFirst(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, hetionetLike)
	db := []string{"--db", filepath.Join(t.TempDir(), "kb")}
	args := append([]string{"ingest"}, db...)
	args = append(args, filepath.Join(dir, "subset/edges/Compound_Binds_Gene.tsv"), "../../testdata/corpus/docs.jsonl", filepath.Join(dir, "hetio/nodes.tsv"))
	if code, out, errOut := cli(t, "", args...); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if m := stats(t, db); m["triples"] != 2.0 {
		t.Fatalf("store has %v triples, want 2", m["triples"])
	}
}

// TestIngestDirectoryWithABadFile: a bad file is rejected whole and the
// others are ingested; the command exits 1 and its summary names the
// rejected file and says the others stay.
func TestIngestDirectoryWithABadFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.jsonl":     `{"id": "a1", "text": "Chest pain."}` + "\n",
		"b.jsonl":     `{"id": "b1", "text": "Fever."}` + "\n" + `{"id": "b2", "text": "   "}` + "\n",
		"c.tsv":       "c1\tCough.\n",
		"notes.txt":   "not read\n",
		"strange.tsv": "x\ty\tz\n",
	})
	db := []string{"--db", filepath.Join(t.TempDir(), "kb")}
	code, out, errOut := cli(t, "", append(append([]string{"ingest"}, db...), dir)...)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		filepath.Join(dir, "b.jsonl") + `:2: "text" is only white space`,
		"1 of 3 file(s) rejected: " + filepath.Join(dir, "b.jsonl") + "; the other 2 were ingested and stay committed",
		"skipping " + filepath.Join(dir, "strange.tsv") + ": not a format medkb ingests",
		"skipping 1 file(s) in " + dir + " that are not .jsonl or .tsv: " + filepath.Join(dir, "notes.txt"),
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if m := stats(t, db); m["docs"] != 2.0 {
		t.Fatalf("store has %v documents, want 2 (a1, c1)", m["docs"])
	}
}

// TestIngestWritesInBatches: a file longer than a batch is written in
// several transactions and ends up whole; --skip-bad skips its bad lines
// in every batch.
func TestIngestWritesInBatches(t *testing.T) {
	defer func(n int) { docBatch = n }(docBatch)
	docBatch = 3
	var in strings.Builder
	for i := range 10 {
		fmt.Fprintf(&in, "{\"id\": \"d%d\", \"text\": \"Note %d: chest pain.\"}\n", i, i)
		if i == 4 {
			in.WriteString(`{"id": "bad", "text": "x", "meta": {"": "v"}}` + "\n")
		}
	}
	path := filepath.Join(t.TempDir(), "docs.jsonl")
	writeFiles(t, filepath.Dir(path), map[string]string{"docs.jsonl": in.String()})
	db := []string{"--db", filepath.Join(t.TempDir(), "kb")}
	code, _, errOut := cli(t, "", append(append([]string{"ingest"}, db...), path)...)
	if code != 1 || !strings.Contains(errOut, `docs.jsonl:6: "meta" has an empty key`) || !strings.Contains(errOut, "nothing ingested") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if m := stats(t, db); m["seq"] != 0.0 {
		t.Fatalf("a rejected file wrote: %v", m)
	}
	code, out, errOut := cli(t, "", append(append([]string{"ingest", "--skip-bad"}, db...), path)...)
	if code != 0 || !strings.Contains(out, "ingested 10 document(s) (10 chunk(s), 1 bad line(s) skipped)") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if m := stats(t, db); m["docs"] != 10.0 || m["seq"] != 4.0 {
		t.Fatalf("want 10 documents in 4 writes: %v", m)
	}
}

// TestIngestHetionet is the Hetionet scenario: ../shared/data/
// hetionet ingests whole, as docs/benchmarks.md says (Hetionet v1.0 has
// 47,031
// nodes and 765,796 edges, 981,679 once the undirected ones are stored
// both ways; about 20 seconds on two cores), the ingest leaves the graph's
// compact form, so the next process opens it with one read, and a
// statement of 20 six-step metapaths stops within its --timeout, naming
// the stage, or finishes within it.
func TestIngestHetionet(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests 47,031 nodes and 765,796 edges")
	}
	t.Parallel() // with the other dataset tests, after the quick ones
	dir := shareddata.Path(t, "hetionet")
	db := []string{"--db", filepath.Join(t.TempDir(), "kb")}
	start := time.Now()
	code, out, errOut := cli(t, "", append(append([]string{"ingest"}, db...), dir)...)
	if code != 0 || !strings.Contains(out, "knowledge graph: built from 981679 triples") || !strings.Contains(out, "saved graph.bin") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	t.Logf("ingested in %v", time.Since(start))
	if m := stats(t, db); m["entities"] != 47031.0 || m["triples"] != 981679.0 {
		t.Fatalf("store has %v entities and %v triples", m["entities"], m["triples"])
	}
	code, out, errOut = cli(t, "", append([]string{"query", `EXPLAIN ANALYZE RETRIEVE "breast cancer" EXPAND metapath "Disease -associates-> Gene" LIMIT 5`}, db...)...)
	if code != 0 || !strings.Contains(out, "graph read from graph.bin") {
		t.Fatalf("the first expanding query after the ingest did not read graph.bin: exit %d\n%s%s", code, out, errOut)
	}
	stmt := twentyMetapaths()
	for _, timeout := range []time.Duration{50 * time.Millisecond, 2 * time.Second} {
		start := time.Now()
		code, out, errOut := cli(t, "", append([]string{"query", "--timeout", timeout.String(), stmt}, db...)...)
		took := time.Since(start)
		t.Logf("--timeout %v: exit %d in %v: %s%s", timeout, code, took, firstLine(out), errOut)
		if took > timeout+timeout/10+200*time.Millisecond {
			t.Errorf("--timeout %v took %v", timeout, took)
		}
		if code != 0 && !strings.Contains(errOut, "timed out during ") {
			t.Errorf("--timeout %v: exit %d without naming the stage:\n%s", timeout, code, errOut)
		}
	}
}

// twentyMetapaths is a statement of 20 Hetionet metapaths of six steps
// each, with HOPS 6.
func twentyMetapaths() string {
	genes := []string{"interacts", "covaries", "regulates"}
	var b strings.Builder
	b.WriteString(`RETRIEVE "breast cancer, lung cancer and melanoma" EXPAND metapath `)
	for i := range 20 {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`"Disease -` + []string{"associates", "upregulates", "downregulates"}[i%3] + "-> Gene")
		for k := range 5 {
			b.WriteString(" -" + genes[(i+k)%3] + "-> Gene")
		}
		b.WriteString(`"`)
	}
	b.WriteString(" HOPS 6 LIMIT 1000")
	return b.String()
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
