package medkb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/store"
)

// sampleDocs reads the embedded sample corpus.
func sampleDocs(t testing.TB) []Doc {
	t.Helper()
	docs, _, _, err := readSample()
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// checked registers a consistency check of db at the end of the test.
func checked(t testing.TB, db *DB) {
	t.Cleanup(func() {
		problems, err := db.Check()
		if err != nil {
			t.Errorf("check: %v", err)
		}
		for _, p := range problems {
			t.Errorf("check: %v", p)
		}
		db.Close()
	})
}

// openEmpty opens a new, empty store, checked at the end of the test.
func openEmpty(t testing.TB) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "kb"), nil)
	if err != nil {
		t.Fatal(err)
	}
	checked(t, db)
	return db
}

// openSample opens a new store holding the sample corpus and graph.
func openSample(t testing.TB) *DB {
	t.Helper()
	db := openEmpty(t)
	if err := LoadSample(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return db
}

func TestReingestKeepsCounts(t *testing.T) {
	db := openSample(t)
	before, _ := db.Stats()
	res, err := db.Ingest(context.Background(), sampleDocs(t))
	if err != nil {
		t.Fatal(err)
	}
	after, _ := db.Stats()
	if after.Docs != before.Docs || after.Chunks != before.Chunks || after.Vectors != before.Vectors {
		t.Fatalf("re-ingest changed counts: %+v -> %+v", before, after)
	}
	if res.Deleted != before.Chunks {
		t.Fatalf("re-ingest replaced %d chunks, want %d", res.Deleted, before.Chunks)
	}
	if before.Docs < 40 || before.Tiers["T1"] == 0 || before.Tiers["T4"] == 0 {
		t.Fatalf("sample too small: %+v", before)
	}
}

func TestBadDocumentLeavesStoreUnchanged(t *testing.T) {
	db := openSample(t)
	before, _ := db.Stats()
	docs := sampleDocs(t)[:5]
	docs = append(docs, Doc{ID: "bad", Text: "x", Vector: []float32{1, 2}}) // wrong dimension
	_, err := db.Ingest(context.Background(), docs)
	var de *DocError
	if !errors.As(err, &de) || de.Index != 5 || !strings.Contains(err.Error(), "dimensions") {
		t.Fatalf("want a DocError for document 6, got %v", err)
	}
	after, _ := db.Stats()
	if after.Seq != before.Seq || after.Docs != before.Docs {
		t.Fatalf("failed ingest changed the store: %+v -> %+v", before, after)
	}
}

func TestDeleteRemovesEverywhere(t *testing.T) {
	db := openSample(t)
	ctx := context.Background()
	r, err := db.Query(ctx, `RETRIEVE "troponin" USING bm25(k=5) WHERE doc = "P001-lab-06"`)
	if err != nil || len(r.Items) == 0 {
		t.Fatalf("before delete: %v %+v", err, r)
	}
	shown, err := db.Show([]string{"P001-lab-06"})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := db.Stats()
	res, err := db.Delete(ctx, []string{"P001-lab-06", "no-such-doc", "P001-lab-06"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Docs != 1 || res.Chunks != len(shown[0].Chunks) || res.Seq != before.Seq+1 || res.IndexErr != nil {
		t.Fatalf("Delete = %+v; want 1 document of %d chunks at write %d", res, len(shown[0].Chunks), before.Seq+1)
	}
	for _, using := range []string{"bm25(k=5)", "vector(k=5)"} {
		r, err = db.Query(ctx, `RETRIEVE "troponin" USING `+using+` WHERE doc = "P001-lab-06"`)
		if err != nil || len(r.Items) != 0 {
			t.Fatalf("after delete, %s still finds it: %v %+v", using, err, r.Items)
		}
	}
}

// A crash between the store's commit and the BM25 update must not lose the
// write: the next open replays it.
func TestOpenReplaysWhatTheIndexMissed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	docs := sampleDocs(t)
	if _, err := db.Ingest(context.Background(), docs[:10]); err != nil {
		t.Fatal(err)
	}
	// Commit to the store only, as if the process died right after.
	puts, err := db.preparer().prepare(context.Background(), convert(docs[10:20], toBaseDoc), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.cur.st.Write(&store.Batch{Put: puts, Embedder: db.emb.Name(), Dim: db.emb.Dim()}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	checked(t, db) // the index must agree with the store
	if st, err := db.Stats(); err != nil || st.Docs != 20 {
		t.Fatalf("after reopening: %+v %v, want 20 documents", st, err)
	}
	// Each document written behind the index's back is found by its own
	// words, by BM25 and by vector search alike.
	for _, d := range docs[10:20] {
		words := strings.Fields(strings.NewReplacer(`"`, " ", `\`, " ").Replace(d.Text))
		question := strings.Join(words[:min(8, len(words))], " ")
		for _, using := range []string{"bm25(k=5)", "vector(k=5)"} {
			r, err := db.Query(context.Background(), fmt.Sprintf(`RETRIEVE %q USING %s WHERE doc = %q`, question, using, d.ID))
			if err != nil || len(r.Items) == 0 || r.Items[0].Doc != d.ID {
				t.Fatalf("%s does not find %s after the replay: %v %+v", using, d.ID, err, r)
			}
		}
	}
}

func TestConcurrentQueriesAndIngest(t *testing.T) {
	db := openSample(t)
	docs := sampleDocs(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				if _, err := db.Query(ctx, `RETRIEVE "chest pain troponin" PACK budget 128`); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 3; i++ {
			if _, err := db.Ingest(ctx, docs[i*5:i*5+5]); err != nil {
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// The JSON names of a result are a contract of `medkb query --json`.
func TestResultJSONContract(t *testing.T) {
	db := openSample(t)
	r, err := db.Query(context.Background(), `RETRIEVE "chest pain, troponin 2.3 ng/mL" FUSE rrf EXPAND metapath "Disease -has_symptom-> Symptom" PACK budget 512 kmin 1`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(r)
	var m map[string]any
	json.Unmarshal(b, &m)
	for _, k := range []string{"query", "plan", "items", "dropped", "budget", "tokens_used", "context", "sources", "expansion"} {
		if _, ok := m[k]; !ok {
			t.Errorf("result lacks %q", k)
		}
	}
	exp := m["expansion"].(map[string]any)
	for _, k := range []string{"fired", "anchors", "reason", "paths"} {
		if _, ok := exp[k]; !ok {
			t.Errorf("expansion lacks %q", k)
		}
	}
	item := m["items"].([]any)[0].(map[string]any)
	for _, k := range []string{"rank", "id", "doc", "chunk", "tier", "state", "tokens", "score", "text", "provenance"} {
		if _, ok := item[k]; !ok {
			t.Errorf("item lacks %q", k)
		}
	}
	prov := item["provenance"].(map[string]any)
	for _, k := range []string{"bm25", "vector", "fused", "path"} {
		if _, ok := prov[k]; !ok {
			t.Errorf("provenance lacks %q", k)
		}
	}
	if r.TokensUsed > 512 || !strings.HasPrefix(r.Context, "[1] T") || len(r.Sources) != len(r.Items) {
		t.Errorf("context: %d tokens, %d sources for %d items\n%s", r.TokensUsed, len(r.Sources), len(r.Items), r.Context)
	}
}

func TestQueryHonoursCancellation(t *testing.T) {
	db := openSample(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := db.Query(ctx, `RETRIEVE "chest pain"`); !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
}

// TestChooseEmbedder checks that Open recreates the embedder a store
// recorded, and refuses one it cannot.
func TestChooseEmbedder(t *testing.T) {
	server := embed.OpenAIConfig{BaseURL: "http://localhost:11434"}
	for _, tc := range []struct {
		meta store.Meta
		want string
	}{
		{store.Meta{}, "hash-v1 384"},
		{store.Meta{Embedder: "hash-v1", Dim: 768}, "hash-v1 768"},
		{store.Meta{Embedder: "openai:bge-m3", Dim: 1024}, "openai:bge-m3 1024"},
		{store.Meta{Embedder: "word2vec", Dim: 300}, `the store was built with "word2vec", which this medkb cannot recreate`},
	} {
		e, err := chooseEmbedder(nil, tc.meta, server)
		got := ""
		if err != nil {
			got = err.Error()
			if !errors.Is(err, store.ErrEmbedderMismatch) {
				t.Errorf("%+v: %v is not ErrEmbedderMismatch", tc.meta, err)
			}
		} else {
			got = fmt.Sprintf("%s %d", e.Name(), e.Dim())
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%+v: got %q, want %q", tc.meta, got, tc.want)
		}
	}
}
