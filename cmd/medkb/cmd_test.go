package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/internal/shareddata"
)

// cli runs one command line in process and returns its exit status and
// output streams.
func cli(t testing.TB, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// sampleStore ingests the project's sample corpus and graph into a new
// store and returns its --db flag.
func sampleStore(t *testing.T) []string {
	t.Helper()
	db := []string{"--db", filepath.Join(t.TempDir(), "kb")}
	args := append([]string{"ingest"}, db...)
	args = append(args, "../../testdata/corpus/docs.jsonl", "../../testdata/graph/entities.jsonl", "../../testdata/graph/kg.jsonl")
	if code, out, errOut := cli(t, "", args...); code != 0 {
		t.Fatalf("ingest: %d\n%s%s", code, out, errOut)
	}
	t.Cleanup(func() {
		if code, out, errOut := cli(t, "", append([]string{"check"}, db...)...); code != 0 {
			t.Errorf("check after test: %s%s", out, errOut)
		}
	})
	return db
}

func stats(t *testing.T, db []string) map[string]any {
	t.Helper()
	code, out, errOut := cli(t, "", append([]string{"stats", "--json"}, db...)...)
	if code != 0 {
		t.Fatalf("stats: %s", errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestIngestStatsAndReingest(t *testing.T) {
	db := sampleStore(t)
	m := stats(t, db)
	for _, k := range []string{"docs", "chunks", "vectors", "tiers", "generation", "embedder", "dim"} {
		if _, ok := m[k]; !ok {
			t.Errorf("stats lacks %q", k)
		}
	}
	docs := m["docs"].(float64)
	if code, _, errOut := cli(t, "", append([]string{"ingest"}, append(db, "../../testdata/corpus/docs.jsonl")...)...); code != 0 {
		t.Fatal(errOut)
	}
	if again := stats(t, db)["docs"].(float64); again != docs {
		t.Fatalf("re-ingest changed the count: %v -> %v", docs, again)
	}
}

func TestIngestRejectsBadFile(t *testing.T) {
	db := sampleStore(t)
	before := stats(t, db)
	code, _, errOut := cli(t, "", append([]string{"ingest"}, append(db, "../../testdata/corpus/bad.jsonl")...)...)
	if code != 1 || !strings.Contains(errOut, "bad.jsonl:3:") || !strings.Contains(errOut, "nothing ingested") {
		t.Fatalf("want a rejection naming bad.jsonl:3, got %d: %s", code, errOut)
	}
	if after := stats(t, db); after["seq"] != before["seq"] || after["docs"] != before["docs"] {
		t.Fatalf("rejected file changed the store: %v -> %v", before, after)
	}
	code, out, _ := cli(t, "", append([]string{"ingest", "--skip-bad"}, append(db, "../../testdata/corpus/bad.jsonl")...)...)
	if code != 0 || !strings.Contains(out, "1 bad line(s) skipped") {
		t.Fatalf("--skip-bad: %d %s", code, out)
	}
}

func TestQueryJSONAndStdin(t *testing.T) {
	db := sampleStore(t)
	code, out, errOut := cli(t, `RETRIEVE "troponin" PACK budget 128 kmin 1`, append([]string{"query", "--json"}, append(db, "-")...)...)
	if code != 0 {
		t.Fatal(errOut)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r["tokens_used"].(float64) > 128 || len(r["items"].([]any)) == 0 {
		t.Fatalf("result: %v", r)
	}
	// Sources are data, one object a citation beside its item; the text
	// output prints each as the line it always was.
	items, sources := r["items"].([]any), r["sources"].([]any)
	if len(sources) != len(items) {
		t.Fatalf("%d sources for %d items", len(sources), len(items))
	}
	for i, s := range sources {
		src, it := s.(map[string]any), items[i].(map[string]any)
		if src["rank"] != it["rank"] || src["id"] != it["id"] || src["doc"] != it["doc"] || src["patient"] == nil {
			t.Errorf("source %v of item %v", src, it)
		}
	}
	_, text, _ := cli(t, `RETRIEVE "troponin" PACK budget 128 kmin 1`, append([]string{"query"}, append(db, "-")...)...)
	first := sources[0].(map[string]any)
	line := fmt.Sprintf("Sources:\n[1] %s, %q, %s, %s, patient %s, %s\n", first["id"], first["title"], first["type"], first["source"], first["patient"], first["time"])
	if !strings.Contains(text, line) {
		t.Errorf("text output lacks %q:\n%s", line, text)
	}
	code, out, _ = cli(t, "", append([]string{"query"}, append(db, `RETRIEVE "troponin" LIMIT 2`)...)...)
	if code != 0 || !strings.Contains(out, "[1]") || !strings.Contains(out, "--- context ---") || !strings.Contains(out, "Sources:\n[1] ") ||
		strings.Contains(out, " tokens, utility ") {
		t.Fatalf("human output: %s", out)
	}
	code, out, _ = cli(t, "", append([]string{"query"}, append(db, `RETRIEVE "troponin" PACK budget 128`)...)...)
	if code != 0 || !regexp.MustCompile(`\[1\] T\d \S+ state [AB], \d+ tokens, utility \d\S*, density \d\S*, score`).MatchString(out) {
		t.Fatalf("packed human output lacks state, utility and density: %s", out)
	}
}

func TestQueryErrorNamesPosition(t *testing.T) {
	db := sampleStore(t)
	code, _, errOut := cli(t, "", append([]string{"query"}, append(db, "RETRIEVE \"x\"\n  FUZE rrf")...)...)
	if code != 1 || !strings.Contains(errOut, "2:3:") || !strings.Contains(errOut, "did you mean FUSE?") || !strings.Contains(errOut, "^") {
		t.Fatalf("want a positioned error, got %d: %s", code, errOut)
	}
}

func TestExportShowCheck(t *testing.T) {
	db := sampleStore(t)
	_, out, _ := cli(t, "", append([]string{"export"}, db...)...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if float64(len(lines)) != stats(t, db)["docs"].(float64) || !strings.Contains(lines[0], `"tier":"T`) {
		t.Fatalf("export: %d lines, first %s", len(lines), lines[0])
	}
	code, out, _ := cli(t, "", append([]string{"show"}, append(db, "P001-lab-06")...)...)
	if code != 0 || !strings.Contains(out, "state B") || !strings.Contains(out, "tier T2 by type table: lab, the document's") {
		t.Fatalf("show: %s", out)
	}
	code, out, _ = cli(t, "", append([]string{"show", "--json"}, append(db, "P001-lab-06")...)...)
	if code != 0 || !strings.Contains(out, `"tier_by": "type table: lab"`) || !strings.Contains(out, `"tier_of": "document"`) {
		t.Fatalf("show --json: %s", out)
	}
	if code, _, errOut := cli(t, "", append([]string{"show"}, append(db, "no-such-doc")...)...); code != 1 || !strings.Contains(errOut, "no such document") {
		t.Fatalf("show unknown: %s", errOut)
	}
	if code, out, _ := cli(t, "", append([]string{"check"}, db...)...); code != 0 || !strings.HasPrefix(out, "ok:") {
		t.Fatalf("check: %s", out)
	}
}

func TestReplPiped(t *testing.T) {
	db := sampleStore(t)
	in := "\\stats\n\\json on\nRETRIEVE \"troponin\"\n  LIMIT 1;\n\\json off\n\\explain on\nRETRIEVE \"x\" LIMIT 1;\nRETRIEVE \"x\" LIMT 1;\n\\bogus\n\\q\n"
	code, out, errOut := cli(t, in, append([]string{"repl"}, db...)...)
	if code != 1 { // a statement failed: piped input says so
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"documents (T1", `"items"`, "explain analyze on", "rows in="} {
		if !strings.Contains(out, want) {
			t.Errorf("repl output lacks %q:\n%s", want, out)
		}
	}
	// The error is placed on the statement as typed, not on the
	// EXPLAIN ANALYZE the REPL runs.
	if !strings.Contains(errOut, "unknown command") || !strings.Contains(errOut, "error: 1:14: unexpected token \"LIMT\"") ||
		!strings.Contains(errOut, "\n  RETRIEVE \"x\" LIMT 1;\n               ^") {
		t.Errorf("repl stderr: %s", errOut)
	}
}

func TestDemo(t *testing.T) {
	code, out, errOut := cli(t, "", "demo")
	if code != 0 || strings.Count(out, "--- context ---") < 3 || !strings.Contains(out, "rows in=") ||
		!strings.Contains(out, "血常规：血红蛋白121g/L") || !strings.Contains(out, "relevance: nothing relevant") {
		t.Fatalf("demo: %d %s %s", code, out, errOut)
	}
}

func TestBenchVector(t *testing.T) {
	code, out, errOut := cli(t, "", "bench", "vector", "--n", "2000", "--dim", "64", "--queries", "5", "--json")
	if code != 0 || !strings.Contains(out, "ms_per_query") || !strings.Contains(out, "gb_per_s") {
		t.Fatalf("bench vector: %s %s", out, errOut)
	}
	code, out, errOut = cli(t, "", "bench", "vector", "--n", "2000", "--dim", "64", "--queries", "5", "--scan", "int8")
	for _, want := range []string{"kernel: " + vector.KernelName(vector.ScanInt8, 64), "read bandwidth: ", "scan/floor ", "int8+rescore 42: recall@10"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("bench vector --scan int8: no %q in %s %s", want, out, errOut)
		}
	}
	if code, _, errOut = cli(t, "", "bench", "vector", "--scan", "int4"); code == 0 || !strings.Contains(errOut, "use f32 or int8") {
		t.Fatalf("bench vector --scan int4: %d %s", code, errOut)
	}
}

func TestMissingStoreIsAClearError(t *testing.T) {
	code, _, errOut := cli(t, "", "stats", "--db", filepath.Join(t.TempDir(), "nope"))
	if code != 1 || !strings.Contains(errOut, "does not exist") {
		t.Fatalf("stats on a missing store: %d %s", code, errOut)
	}
}

// TestStoreFlagsOnlyWhereUsed: a command that opens no store neither lists
// nor accepts --db, so a user cannot think it wrote to the store named.
func TestStoreFlagsOnlyWhereUsed(t *testing.T) {
	for _, args := range [][]string{{"stats"}, {"query"}, {"ingest"}, {"repl"}, {"export"}, {"show"}, {"check"}, {"backup"}, {"rebuild"}, {"delete"}, {"bench", "query"}} {
		_, out, _ := cli(t, "", append(args, "--help")...)
		if !strings.Contains(out, "--db string") || !strings.Contains(out, "--lock-timeout") {
			t.Errorf("%v --help lacks the store flags:\n%s", args, out)
		}
	}
	for _, args := range [][]string{{"demo"}, {"tune"}, {"bench", "pack"}, {"bench", "vector"}, {"bench", "ingest"}, {"bench", "retrieval"}, {"bench", "graph"}} {
		_, out, _ := cli(t, "", append(args, "--help")...)
		if strings.Contains(out, "--db") || strings.Contains(out, "--lock-timeout") {
			t.Errorf("%v --help offers store flags it ignores:\n%s", args, out)
		}
	}
	code, _, errOut := cli(t, "", "demo", "--db", t.TempDir())
	if code != 1 || !strings.Contains(errOut, "unknown flag: --db") {
		t.Fatalf("demo --db: %d %s", code, errOut)
	}
}

func TestBenchPackAndTune(t *testing.T) {
	cases := "../../internal/bench/packbench/testdata/cases.jsonl"
	svg := filepath.Join(t.TempDir(), "rrce.svg")
	code, out, errOut := cli(t, "", "bench", "pack", "--cases", cases, "--windows", "256,512", "--svg", svg, "--json")
	if code != 0 {
		t.Fatal(errOut)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"cases", "rrce", "utility_ratio_vs_exact", "kmin_ablation"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("bench pack JSON lacks %q", k)
		}
	}
	if ebm := rep["rrce"].(map[string]any)["ebm"].(map[string]any); ebm["512"] == nil {
		t.Errorf("no ebm RRCE at 512: %v", ebm)
	}
	code, out, errOut = cli(t, "", "tune", "--cases", cases, "--window", "256")
	if code != 0 || !strings.HasPrefix(out, "best at 256 tokens") {
		t.Fatalf("tune: %d %s %s", code, out, errOut)
	}
	if code, _, errOut := cli(t, "", "bench", "pack"); code != 1 || !strings.Contains(errOut, "--cases FILE or --medqa FILE") {
		t.Fatalf("bench pack without cases: %s", errOut)
	}
	if code, _, errOut := cli(t, "", "bench", "pack", "--cases", cases, "--floor", "1.5"); code != 1 || !strings.Contains(errOut, "--floor 1.5 must be in [0, 1]") {
		t.Fatalf("bench pack --floor 1.5: %d %s", code, errOut)
	}
	if code, out, errOut := cli(t, "", "bench", "pack", "--cases", cases, "--record-in-query", "--windows", "512"); code != 0 || !strings.Contains(out, "ebm") {
		t.Fatalf("bench pack --record-in-query: %d %s %s", code, out, errOut)
	}
	if code, out, errOut := cli(t, "", "bench", "pack", "--cases", cases, "--windows", "256", "--losses", "64"); code != 0 || !strings.Contains(out, "T1/T2 signal segments lost by ebm at 64 tokens:") {
		t.Errorf("--losses: %d %s %s", code, out, errOut)
	}
	if code, _, errOut := cli(t, "", "bench", "pack", "--medqa", cases, "--record-in-query"); code != 1 || !strings.Contains(errOut, "--record-in-query needs --cases") {
		t.Fatalf("bench pack --medqa --record-in-query: %d %s", code, errOut)
	}
	if code, _, errOut := cli(t, "", "tune", "--cases", cases, "--validation"); code != 1 || !strings.Contains(errOut, "need --medqa") {
		t.Fatalf("tune --cases --validation: %d %s", code, errOut)
	}
	for _, tc := range []struct{ flags, want string }{
		{"--noise -1", "--noise -1: want noise segments per signal segment, 0 or more"},
		{"--n 5", "--n needs --medqa"},
		{"--windows 512,256,512", "window 512 given twice"},
	} {
		args := append([]string{"bench", "pack", "--cases", cases}, strings.Fields(tc.flags)...)
		if code, _, errOut := cli(t, "", args...); code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("bench pack %s: exit %d, %q; want %q", tc.flags, code, errOut, tc.want)
		}
	}
}

// TestNFCorpusRetrieval checks retrieval quality on NFCorpus (test split,
// title queries) when ../shared/data is present: BM25 at least 0.31
// nDCG@10 (a textbook BM25 scores 0.313) and the best hybrid at least as
// good as BM25.
func TestNFCorpusRetrieval(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests 3,162 documents")
	}
	t.Parallel() // with the other dataset tests, after the quick ones
	dir := filepath.Dir(shareddata.Path(t, "nfcorpus", "test.docs"))
	rep, err := benchRetrieval(context.Background(), nil, filepath.Join(dir, "test.docs"),
		[]string{filepath.Join(dir, "test.titles.queries")}, filepath.Join(dir, "test.2-1-0.qrel"), 1, "bm25", "rrf", "weighted")
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range rep.Methods {
		t.Logf("%-9s nDCG@10 %.4f recall@100 %.4f", name, m["ndcg@10"], m["recall@100"])
	}
	bm25 := rep.Methods["bm25"]["ndcg@10"]
	best := max(rep.Methods["rrf"]["ndcg@10"], rep.Methods["weighted"]["ndcg@10"])
	if bm25 < 0.31 {
		t.Errorf("BM25 nDCG@10 %.4f < 0.31", bm25)
	}
	if best < bm25 {
		t.Errorf("best hybrid nDCG@10 %.4f < BM25 %.4f", best, bm25)
	}
}

// TestBenchQueryStages: bench query --stages reports the operators of
// EXPLAIN ANALYZE, each retrieval arm apart.
func TestBenchQueryStages(t *testing.T) {
	db := sampleStore(t)
	stmts := filepath.Join(t.TempDir(), "stmts.txt")
	if err := os.WriteFile(stmts, []byte("-- a comment\nRETRIEVE \"chest pain troponin\" USING bm25(k=10), vector(k=10) PACK budget 200\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cli(t, "", append([]string{"bench", "query", "--queries", stmts, "--runs", "2", "--stages", "--json"}, db...)...)
	if code != 0 {
		t.Fatalf("bench query: %d\n%s%s", code, out, errOut)
	}
	var rep struct {
		Queries int                           `json:"queries"`
		Stages  map[string]map[string]float64 `json:"stages"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{"Retrieve bm25", "Retrieve vector", "Fuse", "Relevance", "Dedup", "Pack"} {
		if _, ok := rep.Stages[op]["p50_ms"]; !ok {
			t.Errorf("no %s in %s", op, out)
		}
	}
	if rep.Queries != 1 {
		t.Errorf("queries %d, want 1", rep.Queries)
	}
}
