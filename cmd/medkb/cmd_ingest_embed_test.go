package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// servedStore ingests two documents into a new store bound to
// openai:relay, served by srv, and returns its --db flag.
func servedStore(t *testing.T, srv *fakeEmbedServer) []string {
	t.Helper()
	db := []string{"--db", filepath.Join(t.TempDir(), "kb")}
	in := `{"id":"d1","text":"troponin raised after chest pain"}` + "\n" + `{"id":"d2","text":"penicillin allergy"}` + "\n"
	args := append([]string{"ingest", "--embedder", "openai:relay", "--embed-dim", "384", "--embed-url", srv.URL}, append(db, "-")...)
	if code, out, errOut := cli(t, in, args...); code != 0 {
		t.Fatalf("ingest --embedder: %d\n%s%s", code, out, errOut)
	}
	return db
}

// vectorLine is a document line with a supplied 384-dimension vector
// that names model as its maker ("" names none).
func vectorLine(id, model string) string {
	line := `{"id":"` + id + `","text":"chest pain","vector":[1` + strings.Repeat(",0", 383) + `]`
	if model != "" {
		line += `,"embedder":"` + model + `"`
	}
	return line + "}\n"
}

// TestIngestEmbedderBindsStore: --embedder builds a store bound to the
// served model, and a later query embeds through the server named by
// $MEDKB_EMBED_URL.
func TestIngestEmbedderBindsStore(t *testing.T) {
	srv := hashServer(t)
	db := servedStore(t, srv)
	if m := stats(t, db); m["embedder"] != "openai:relay" || m["dim"] != 384.0 {
		t.Fatalf("stats: embedder %v dim %v, want openai:relay 384", m["embedder"], m["dim"])
	}
	if srv.calls.Load() == 0 {
		t.Fatal("ingest did not embed through the server")
	}
	t.Setenv("MEDKB_EMBED_URL", srv.URL)
	before := srv.calls.Load()
	code, out, errOut := cli(t, "", append([]string{"query", "--json"}, append(db, `RETRIEVE "troponin" USING vector(k=2)`)...)...)
	if code != 0 || !strings.Contains(out, `"doc": "d1"`) {
		t.Fatalf("query: %d\n%s%s", code, out, errOut)
	}
	if srv.calls.Load() == before {
		t.Error("the query did not embed through the server")
	}
	t.Setenv("MEDKB_EMBED_URL", "")
	code, _, errOut = cli(t, "", append([]string{"query"}, append(db, `RETRIEVE "troponin"`)...)...)
	if code != 1 || !strings.Contains(errOut, "openai:relay") || !strings.Contains(errOut, "$MEDKB_EMBED_URL") {
		t.Errorf("query without a server: %d %q", code, errOut)
	}
}

// TestIngestEmbedderMismatch: --embedder for a store built with another
// embedder is an error naming both, and writes nothing.
func TestIngestEmbedderMismatch(t *testing.T) {
	srv := hashServer(t)
	db := servedStore(t, srv)
	args := append([]string{"ingest", "--embedder", "openai:other", "--embed-dim", "384", "--embed-url", srv.URL}, append(db, "-")...)
	code, _, errOut := cli(t, `{"id":"d3","text":"x"}`+"\n", args...)
	if code != 1 || !strings.Contains(errOut, "openai:relay") || !strings.Contains(errOut, "openai:other") {
		t.Fatalf("ingest into a store of another embedder: %d %q", code, errOut)
	}
	hash := []string{"--db", filepath.Join(t.TempDir(), "kb")}
	if code, _, errOut := cli(t, `{"id":"d1","text":"x"}`+"\n", append([]string{"ingest"}, append(hash, "-")...)...); code != 0 {
		t.Fatal(errOut)
	}
	args = append([]string{"ingest", "--embedder", "openai:relay", "--embed-dim", "384", "--embed-url", srv.URL}, append(hash, "-")...)
	code, _, errOut = cli(t, `{"id":"d3","text":"x"}`+"\n", args...)
	if code != 1 || !strings.Contains(errOut, "hash-v1") || !strings.Contains(errOut, "openai:relay") {
		t.Fatalf("--embedder for a hash-v1 store: %d %q", code, errOut)
	}
	if m := stats(t, hash); m["docs"] != 1.0 {
		t.Errorf("a refused ingest wrote: %v documents", m["docs"])
	}
}

// TestIngestRefusesForeignVector: a supplied vector must name the store's
// embedder as its model; a line with another, or none, is a bad line
// (file:line, both models) that --skip-bad skips.
func TestIngestRefusesForeignVector(t *testing.T) {
	srv := hashServer(t)
	db := servedStore(t, srv)
	t.Setenv("MEDKB_EMBED_URL", srv.URL)
	for _, tc := range []struct{ model, want string }{
		{"openai:other", `stdin:2: "vector" was made by openai:other, the store's embedder is openai:relay`},
		{"", `stdin:2: "vector" does not say which model made it; the store's embedder is openai:relay`},
	} {
		in := `{"id":"d3","text":"fever"}` + "\n" + vectorLine("d4", tc.model)
		code, _, errOut := cli(t, in, append([]string{"ingest"}, append(db, "-")...)...)
		if code != 1 || !strings.Contains(errOut, tc.want) {
			t.Fatalf("ingest: %d %q, want %q", code, errOut, tc.want)
		}
		code, out, errOut := cli(t, in, append([]string{"ingest", "--skip-bad"}, append(db, "-")...)...)
		if code != 0 || !strings.Contains(out, "1 bad line(s) skipped") || !strings.Contains(errOut, tc.want) {
			t.Fatalf("ingest --skip-bad: %d %q %q", code, out, errOut)
		}
	}
	in := vectorLine("d5", "openai:relay")
	if code, _, errOut := cli(t, in, append([]string{"ingest"}, append(db, "-")...)...); code != 0 {
		t.Fatalf("a vector of the store's model: %s", errOut)
	}
	if m := stats(t, db); m["docs"] != 4.0 {
		t.Errorf("docs %v, want d1 d2 d3 d5", m["docs"])
	}
	hash := []string{"--db", filepath.Join(t.TempDir(), "kb")}
	code, _, errOut := cli(t, vectorLine("d1", ""), append([]string{"ingest"}, append(hash, "-")...)...)
	if code != 1 || !strings.Contains(errOut, `stdin:1: "vector" does not say which model made it; the store's embedder is hash-v1`) {
		t.Errorf("an unnamed vector into a hash-v1 store: %d %q", code, errOut)
	}
}

// TestIngestEmbedderServerDown: a server that does not answer fails the
// ingest with a message naming the model and the cause, and leaves the
// store as it was: a new one still bound to no embedder, a bound one
// with the documents it had.
func TestIngestEmbedderServerDown(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the client's retries (3.5 s, twice)")
	}
	srv := hashServer(t)
	url := srv.URL
	srv.Close()
	db := []string{"--db", filepath.Join(t.TempDir(), "kb")}
	args := append([]string{"ingest", "--embedder", "openai:relay", "--embed-dim", "384", "--embed-url", url}, append(db, "-")...)
	code, _, errOut := cli(t, `{"id":"d1","text":"troponin"}`+"\n", args...)
	if code != 1 || !strings.Contains(errOut, "embedding: embed: openai:relay") || !strings.Contains(errOut, "connection refused") ||
		!strings.Contains(errOut, "nothing of it was written") {
		t.Fatalf("ingest with the server down: %d %q", code, errOut)
	}
	if m := stats(t, db); m["docs"] != 0.0 || m["embedder"] != "" {
		t.Errorf("the failed ingest changed the store: docs %v, embedder %v", m["docs"], m["embedder"])
	}
	live := hashServer(t)
	bound := servedStore(t, live)
	live.Close()
	t.Setenv("MEDKB_EMBED_URL", live.URL)
	code, _, errOut = cli(t, `{"id":"d3","text":"fever"}`+"\n", append([]string{"ingest"}, append(bound, "-")...)...)
	if code != 1 || !strings.Contains(errOut, "connection refused") {
		t.Fatalf("ingest into a bound store with its server down: %d %q", code, errOut)
	}
	if m := stats(t, bound); m["docs"] != 2.0 || m["embedder"] != "openai:relay" {
		t.Errorf("the failed ingest changed the store: docs %v, embedder %v", m["docs"], m["embedder"])
	}
}
