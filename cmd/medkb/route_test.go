package main

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/medkb/medkb"
)

// serve serves the store in dir from this process, as an application
// calling DB.Serve would, until the test ends, and returns its DB.
func serve(t *testing.T, dir string) *medkb.DB {
	t.Helper()
	db, err := medkb.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := db.ListenUnix()
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- db.Serve(ln, nil) }()
	t.Cleanup(func() {
		ln.Close()
		if err := <-done; err != nil && !errors.Is(err, net.ErrClosed) {
			t.Errorf("serve: %v", err)
		}
		if err := db.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return db
}

// servedAndCopy makes a sample store and an exact copy of it, serves the
// first and returns the --db flags of both and the server's DB.
func servedAndCopy(t *testing.T) (served, direct []string, db *medkb.DB) {
	t.Helper()
	served = sampleStore(t)
	dir := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(dir, os.DirFS(served[1])); err != nil {
		t.Fatal(err)
	}
	return served, []string{"--db", dir}, serve(t, served[1])
}

// timings are what differs between two runs of the same command.
var timings = regexp.MustCompile(`\d+(\.\d+)? ?(µs|ms|s)\b`)

// same runs one command line on the served store and on its copy and
// fails t unless both give the same exit status and output. The served
// store is locked by its server: --lock-timeout 1ms makes a command that
// opened it fail at once instead of passing unnoticed.
func same(t *testing.T, served, direct []string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	code, out, errOut := cli(t, stdin, append(append(args, served...), "--lock-timeout", "1ms")...)
	dcode, dout, derrOut := cli(t, stdin, append(args, direct...)...)
	out, dout = strings.ReplaceAll(out, served[1], "DB"), strings.ReplaceAll(dout, direct[1], "DB")
	if code != dcode || timings.ReplaceAllString(out, "T") != timings.ReplaceAllString(dout, "T") || errOut != derrOut {
		t.Errorf("%v through the server: %d\n%s%s\nopened directly: %d\n%s%s", args, code, out, errOut, dcode, dout, derrOut)
	}
	return code, out, errOut
}

// Every command that opens a store goes through the server holding it,
// with the output a direct open gives.
func TestCommandsThroughServer(t *testing.T) {
	served, direct, db := servedAndCopy(t)
	for _, args := range [][]string{
		{"query", "--param", "q=troponin", "--param", "p=P001", `RETRIEVE $q WHERE patient = $p PACK budget 128 kmin 1`},
		{"query", "--json", `RETRIEVE "chest pain" LIMIT 3`},
		{"query", `EXPLAIN RETRIEVE "chest pain" FUSE rrf PACK budget 256`},
		{"stats"},
		{"stats", "--json"},
		{"show", "P001-lab-06", "P001-note-10"},
		{"show", "--json", "P001-lab-06"},
		{"export"},
		{"check"},
	} {
		if code, _, errOut := same(t, served, direct, "", args...); code != 0 {
			t.Errorf("%v: %s", args, errOut)
		}
	}
	// Errors print as they do from a direct open: positioned, with the
	// caret; an unknown id exits 1.
	if code, _, errOut := same(t, served, direct, "", "query", "RETRIEVE \"x\"\n  FUZE rrf"); code != 1 || !strings.Contains(errOut, "2:3:") || !strings.Contains(errOut, "^") {
		t.Errorf("parse error: %d %s", code, errOut)
	}
	if code, _, _ := same(t, served, direct, "", "query", "--param", "q=x", `RETRIEVE $q WHERE patient = $p`); code != 1 {
		t.Errorf("unbound parameter: exit %d", code)
	}
	if code, _, errOut := same(t, served, direct, "", "show", "no-such-doc"); code != 1 || !strings.Contains(errOut, "no such document") {
		t.Errorf("show unknown: %d %s", code, errOut)
	}
	in := "\\stats\n\\json on\nRETRIEVE \"troponin\"\n  LIMIT 1;\n\\json off\n\\explain on\nRETRIEVE \"x\" LIMIT 1;\nRETRIEVE \"x\" LIMT 1;\n\\q\n"
	if code, _, errOut := same(t, served, direct, in, "repl"); code != 1 || !strings.Contains(errOut, "\n  RETRIEVE \"x\" LIMT 1;\n               ^") {
		t.Errorf("repl: %d %s", code, errOut)
	}

	// Writes: the server's DB sees each as soon as the command is done.
	if code, _, errOut := same(t, served, direct, "", "delete", "P001-lab-06", "no-such-doc"); code != 1 || !strings.Contains(errOut, "no such document: no-such-doc") {
		t.Errorf("delete: %d %s", code, errOut)
	}
	if _, err := db.Show([]string{"P001-lab-06"}); !errors.Is(err, medkb.ErrNotFound) {
		t.Errorf("the server still shows a deleted document: %v", err)
	}
	docs := filepath.Join(t.TempDir(), "new.jsonl")
	if err := os.WriteFile(docs, []byte(`{"id": "R1", "text": "Troponin I 4.1 ng/mL at 06:00.", "type": "lab", "patient": "P009"}`+"\n"+
		`{"id": "R2", "text": "Chest pain resolved after nitroglycerin.", "patient": "P009"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := same(t, served, direct, "", "ingest", docs); code != 0 {
		t.Fatalf("ingest: %s", errOut)
	}
	if v, err := db.Show([]string{"R1", "R2"}); err != nil || len(v) != 2 {
		t.Errorf("the server does not show the ingested documents: %v", err)
	}
	same(t, served, direct, "", "query", "--json", `RETRIEVE "troponin" WHERE patient = "P009" LIMIT 3`)
	same(t, served, direct, "", "check")

	backups := t.TempDir()
	for i, flags := range [][]string{served, direct} {
		dest := filepath.Join(backups, []string{"served", "direct"}[i])
		code, out, errOut := cli(t, "", append([]string{"backup", dest}, flags...)...)
		if code != 0 || !strings.Contains(out, "check ok") {
			t.Fatalf("backup %v: %d %s%s", flags, code, out, errOut)
		}
	}
	same(t, []string{"--db", filepath.Join(backups, "served")}, []string{"--db", filepath.Join(backups, "direct")}, "", "export")
}

// A relative backup DEST is the caller's, not the server's working
// directory's.
func TestBackupThroughServerRelative(t *testing.T) {
	served := sampleStore(t)
	serve(t, served[1])
	t.Chdir(t.TempDir())
	code, out, errOut := cli(t, "", append([]string{"backup", "copy"}, served...)...)
	if code != 0 || !strings.Contains(out, "to copy:") {
		t.Fatalf("backup: %d %s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join("copy", "CURRENT")); err != nil {
		t.Fatalf("backup is not where it was asked: %v", err)
	}
}

// A rebuild through the server moves the server to the new generation.
func TestRebuildThroughServer(t *testing.T) {
	served := sampleStore(t)
	db := serve(t, served[1])
	code, out, errOut := cli(t, "", append([]string{"rebuild", "--grace", "10ms", "--lock-timeout", "1ms"}, served...)...)
	if code != 0 || !strings.Contains(out, "rebuilt gen-000001 -> gen-000002") {
		t.Fatalf("rebuild: %d\n%s%s", code, out, errOut)
	}
	if s, err := db.Stats(); err != nil || s.Generation != "gen-000002" {
		t.Fatalf("the server after the rebuild: %v %v", s, err)
	}
}

// --no-server opens the store itself even with a server running, and so
// waits for the server's lock like for any writer's.
func TestNoServerBypassesServer(t *testing.T) {
	served := sampleStore(t)
	serve(t, served[1])
	code, _, errOut := cli(t, "", append([]string{"stats", "--no-server", "--lock-timeout", "50ms"}, served...)...)
	if code != 1 || !strings.Contains(errOut, "lock") {
		t.Fatalf("--no-server beside a live server: %d %s", code, errOut)
	}
}

// A socket a dead server left behind is no server: the command opens the
// store itself, at once.
func TestStaleSocketOpensDirectly(t *testing.T) {
	db := sampleStore(t)
	ln, err := net.Listen("unix", medkb.SocketPath(db[1]))
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	start := time.Now()
	code, out, errOut := cli(t, "", append([]string{"stats"}, db...)...)
	if code != 0 || !strings.Contains(out, "documents") {
		t.Fatalf("stats beside a stale socket: %d %s%s", code, out, errOut)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("stats beside a stale socket took %s", d)
	}
}

// An ingest through the server rejects and skips bad lines as a direct
// one does; graph files too, except that the server, not the command,
// prepares the graph for queries; a Hetionet edge file is rejected.
func TestIngestThroughServer(t *testing.T) {
	served, direct, db := servedAndCopy(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"dim.jsonl": `{"id":"d1","text":"troponin"}` + "\n" + `{"id":"d2","text":"pain","vector":[1,2,3]}` + "\n",
		"kg.jsonl":  `{"head": "troponin", "head_type": "Lab", "relation": "marks", "tail": "myocardial injury", "tail_type": "Disease"}` + "\n",
	})
	for _, args := range [][]string{
		{"ingest", "../../testdata/corpus/bad.jsonl"},
		{"ingest", "--skip-bad", "../../testdata/corpus/bad.jsonl"},
		{"ingest", filepath.Join(dir, "dim.jsonl")},
		{"ingest", "--skip-bad", filepath.Join(dir, "dim.jsonl")},
	} {
		same(t, served, direct, "", args...)
	}
	code, out, errOut := cli(t, "", append([]string{"ingest", filepath.Join(dir, "kg.jsonl")}, served...)...)
	_, dout, derrOut := cli(t, "", append([]string{"ingest", filepath.Join(dir, "kg.jsonl")}, direct...)...)
	dout, _, _ = strings.Cut(dout, "knowledge graph: ")
	if code != 0 || timings.ReplaceAllString(out, "T") != timings.ReplaceAllString(dout, "T") || errOut != derrOut {
		t.Errorf("graph ingest through the server: %d\n%s%s\nopened directly:\n%s%s", code, out, errOut, dout, derrOut)
	}
	if s, err := db.Stats(); err != nil || float64(s.Triples) != stats(t, direct)["triples"] {
		t.Errorf("the server's triples after the ingest: %v %v", s, err)
	}
	writeFiles(t, dir, hetionetLike)
	code, _, errOut = cli(t, "", append([]string{"ingest", filepath.Join(dir, "hetio"), filepath.Join(dir, "subset")}, served...)...)
	if code != 1 || !strings.Contains(errOut, "Compound_Binds_Gene.tsv rejected, nothing ingested") || !strings.Contains(errOut, "stop the server") {
		t.Errorf("Hetionet edges through the server: %d %s", code, errOut)
	}
}

// The commands that go through a server say so and offer --no-server;
// those that always open the store themselves do not.
func TestServerHelp(t *testing.T) {
	for _, cmd := range []string{"query", "repl", "stats", "show", "export", "delete", "ingest", "check", "rebuild", "backup"} {
		_, out, _ := cli(t, "", cmd, "--help")
		if !strings.Contains(out, "When a server holds the store") || !strings.Contains(out, "--no-server") {
			t.Errorf("%s --help does not tell of the server:\n%s", cmd, out)
		}
	}
	for _, args := range [][]string{{"serve"}, {"bench", "query"}} {
		if _, out, _ := cli(t, "", append(args, "--help")...); strings.Contains(out, "--no-server") {
			t.Errorf("%v --help offers --no-server", args)
		}
	}
}

// Through a server, --embedder must name the served store's model (the
// server embeds with its own), and a vector of another model is a bad
// line that --skip-bad skips, as it is on a direct open.
func TestIngestEmbedderThroughServer(t *testing.T) {
	served, direct, db := servedAndCopy(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"v.jsonl": `{"id":"v1","text":"troponin"}` + "\n" +
		`{"id":"v2","text":"pain","vector":[0.5],"embedder":"openai:other"}` + "\n"})
	code, _, errOut := cli(t, "", append([]string{"ingest", "--embedder", "openai:relay", "--embed-dim", "384",
		"--embed-url", "http://127.0.0.1:1", filepath.Join(dir, "v.jsonl")}, served...)...)
	if code != 1 || !strings.Contains(errOut, "a server holds the store, which has hash-v1") {
		t.Errorf("--embedder of another model through a server: %d %s", code, errOut)
	}
	before, err := db.Stats()
	if err != nil {
		t.Fatal(err)
	}
	same(t, served, direct, "", "ingest", "--skip-bad", filepath.Join(dir, "v.jsonl"))
	if after, err := db.Stats(); err != nil || after.Docs != before.Docs+1 {
		t.Errorf("the server's documents after skipping the foreign vector: %v, before %d", after, before.Docs)
	}
}
