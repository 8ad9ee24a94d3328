package medkb

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/store"
)

// TestIngestLongUnspacedDocument ingests a megabyte without a space, in
// Latin and in Chinese: each once took minutes to chunk (the target is
// under 10 s; it takes a few on two cores), and every chunk keeps the cap.
// The limit asserted is loose, for loaded machines: it only catches a
// return to quadratic time.
func TestIngestLongUnspacedDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("chunks 2 MiB of text")
	}
	db, err := Open(filepath.Join(t.TempDir(), "kb"), nil)
	if err != nil {
		t.Fatal(err)
	}
	checked(t, db)
	for _, unit := range []string{"abcdefghij", "肌酐"} {
		id := "long-" + unit
		doc := Doc{ID: id, Text: strings.Repeat(unit, base.MaxTextBytes/len(unit))}
		start := time.Now()
		res, err := db.Ingest(context.Background(), []Doc{doc})
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		t.Logf("%q x %d: %d chunks in %v", unit, len(doc.Text)/len(unit), res.Chunks, took)
		if took > time.Minute {
			t.Errorf("%q: %v for %d bytes", unit, took, len(doc.Text))
		}
		views, err := db.Show([]string{id})
		if err != nil {
			t.Fatal(err)
		}
		var rebuilt strings.Builder
		for _, c := range views[0].Chunks {
			if c.Tokens > db.opts.chunkTokens() {
				t.Fatalf("chunk %d has %d tokens", c.Index, c.Tokens)
			}
			rebuilt.WriteString(c.Text)
		}
		if rebuilt.String() != doc.Text {
			t.Fatalf("the chunks of %s do not give back its text", id)
		}
	}
}

// TestCheckDoc: CheckDoc gives the error Ingest would give, store
// dimension included, without writing.
func TestCheckDoc(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "kb"), nil)
	if err != nil {
		t.Fatal(err)
	}
	checked(t, db)
	for _, d := range []Doc{
		{ID: "a", Text: " \n\t"},
		{ID: "a", Text: "x", Vector: []float32{1, 2}, Embedder: "hash-v1"},
		{ID: "a", Text: "x", Meta: map[string]string{"k": strings.Repeat("v", base.MaxMetaValueBytes+1)}},
	} {
		want := db.CheckDoc(&d)
		_, got := db.Ingest(context.Background(), []Doc{d})
		if want == nil || got == nil || !strings.HasSuffix(got.Error(), want.Error()) {
			t.Errorf("%.40q: CheckDoc %v, Ingest %v", d.Text, want, got)
		}
	}
	if st, _ := db.Stats(); st.Seq != 0 {
		t.Fatalf("a rejected document was written: sequence %d", st.Seq)
	}
}

// TestRebuildKeepsWhatTodaysChecksReject: a store may hold documents
// that an earlier medkb admitted and today's checks reject (a text of
// only white space stored with no chunk, an oversized meta value); a
// rebuild carries them over instead of failing.
func TestRebuildKeepsWhatTodaysChecksReject(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kb")
	db, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	legacy := []store.DocWrite{
		{Doc: base.Doc{ID: "blank", Text: "   ", Tier: base.T4}, Day: base.NoDay},
		{Doc: base.Doc{ID: "big-meta", Text: "   ", Tier: base.T4, Meta: map[string]string{"k": strings.Repeat("v", 5<<20)}}, Day: base.NoDay},
	}
	if _, _, err := db.commit(context.Background(), &store.Batch{Put: legacy, Embedder: db.emb.Name(), Dim: db.emb.Dim()}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Ingest(context.Background(), []Doc{{ID: "ok", Text: "Chest pain."}}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	res, err := Rebuild(context.Background(), dir, fastRebuild)
	if err != nil {
		t.Fatal(err)
	}
	if res.Docs != 3 {
		t.Fatalf("rebuilt %d documents, want 3", res.Docs)
	}
}

// TestIngestGraphChecksRecords: a name with a NUL (which would split the
// store's key and fail every later load of the graph) or over its limit
// fails IngestGraph, naming the record, and nothing is written.
func TestIngestGraphChecksRecords(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "kb"), nil)
	if err != nil {
		t.Fatal(err)
	}
	checked(t, db)
	good := Triple{Head: "aspirin", HeadType: "Drug", Relation: "treats", Tail: "pain", TailType: "Symptom"}
	bad := good
	bad.Tail = "pa\x00in"
	_, err = db.IngestGraph(context.Background(), nil, []Triple{good, bad})
	if err == nil || !strings.Contains(err.Error(), `triple 2 ("aspirin" -treats-> "pa\x00in"): "tail" has a control character`) {
		t.Fatalf("err = %v", err)
	}
	_, err = db.IngestGraph(context.Background(), []Entity{{Name: strings.Repeat("x", 5<<20), Type: "Drug"}}, nil)
	if err == nil || !strings.Contains(err.Error(), `entity 1 (Drug "xxxx`) || !strings.HasSuffix(err.Error(), `"name" is 5242880 bytes, more than 1024`) {
		t.Fatalf("err = %v", err)
	}
	if st, _ := db.Stats(); st.Entities != 0 || st.Triples != 0 {
		t.Fatalf("a rejected graph write stored %d entities, %d triples", st.Entities, st.Triples)
	}
}

// TestDayReadOnce checks that the day a document's time names, read once
// when it is prepared, is the one both retrievers filter on, after the
// write and after the BM25 index is rebuilt from the store's log.
func TestDayReadOnce(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "kb"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	docs := []Doc{
		{ID: "new", Text: "Chest pain radiating to the left arm.", Time: "2024年3月5日10时"},
		{ID: "old", Text: "Chest pain on exertion.", Time: "2019/1/2"},
		{ID: "undated", Text: "Chest pain at rest."},
	}
	if _, err := db.Ingest(ctx, docs); err != nil {
		t.Fatal(err)
	}
	want := func(when string) {
		t.Helper()
		for _, using := range []string{"bm25(k=5)", "vector(k=5)"} {
			r, err := db.Query(ctx, `RETRIEVE "chest pain" USING `+using+` WHERE time >= "2024-03-05"`)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range r.Items {
				got = append(got, it.Doc)
			}
			if strings.Join(got, ",") != "new" {
				t.Errorf("%s, %s: time >= 2024-03-05 finds %v, want [new]", when, using, got)
			}
		}
	}
	want("after the write")
	if _, err := db.RepairIndex(); err != nil {
		t.Fatal(err)
	}
	want("after the index is rebuilt")
}

// TestSuppliedVectorModel: a supplied vector is admitted only when it
// names the store's embedder as its model; dimension alone is no proof
// (hash-v1's 384 is several sentence models' too).
func TestSuppliedVectorModel(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "kb"), nil)
	if err != nil {
		t.Fatal(err)
	}
	checked(t, db)
	vec := make([]float32, DefaultDim)
	vec[0] = 1
	for _, tc := range []struct {
		doc  Doc
		want string // "" admits the document
	}{
		{Doc{ID: "none", Text: "x", Vector: vec}, `"vector" does not say which model made it; the store's embedder is hash-v1`},
		{Doc{ID: "other", Text: "x", Vector: vec, Embedder: "openai:minilm"}, `"vector" was made by openai:minilm, the store's embedder is hash-v1`},
		{Doc{ID: "lone", Text: "x", Embedder: "hash-v1"}, `"embedder" names the model of a "vector", and there is none`},
		{Doc{ID: "same", Text: "x", Vector: vec, Embedder: "hash-v1"}, ""},
	} {
		_, err := db.Ingest(context.Background(), []Doc{tc.doc})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.doc.ID, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %q", tc.doc.ID, err, tc.want)
		}
	}
	var got []string
	err = db.Export(func(d *Doc) error { got = append(got, d.ID+" "+d.Embedder); return nil })
	if err != nil || strings.Join(got, ",") != "same hash-v1" {
		t.Fatalf("export: %q %v; want the admitted document with its model", got, err)
	}
}

// TestPrepareCommit: Prepare then Commit is Ingest, a batch prepares
// while another commits and the later write of an id wins, and a
// prepared batch commits once, into its own DB.
func TestPrepareCommit(t *testing.T) {
	ctx := context.Background()
	docs := sampleDocs(t)
	half := len(docs) / 2
	later := docs[0]
	later.Text = "Penicillin allergy confirmed: anaphylaxis in 2019."

	want := openEmpty(t)
	for _, batch := range [][]Doc{docs[:half], docs[half:], {later}} {
		if _, err := want.Ingest(ctx, batch); err != nil {
			t.Fatal(err)
		}
	}

	db := openEmpty(t)
	first, err := db.Prepare(ctx, docs[:half], nil)
	if err != nil {
		t.Fatal(err)
	}
	committed := make(chan error, 1)
	go func() {
		_, err := db.Commit(ctx, first)
		committed <- err
	}()
	second, err := db.Prepare(ctx, docs[half:], nil)
	if err != nil {
		t.Fatal(err)
	}
	third, err := db.Prepare(ctx, []Doc{later}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-committed; err != nil {
		t.Fatal(err)
	}
	for _, p := range []*Prepared{second, third} {
		if _, err := db.Commit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}

	for _, q := range []string{`RETRIEVE "penicillin allergy" LIMIT 5`, `RETRIEVE "troponin chest pain" LIMIT 5`} {
		got, err := db.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		wantRes, err := want.Query(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if got.Context == "" || got.Context != wantRes.Context {
			t.Errorf("%s: Prepare+Commit gave\n%s\nIngest\n%s", q, got.Context, wantRes.Context)
		}
	}
	views, err := db.Show([]string{later.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(views) != 1 || views[0].Chunks[0].Text != later.Text {
		t.Errorf("the later write of %s did not win: %+v", later.ID, views)
	}

	if _, err := db.Commit(ctx, third); err == nil || !strings.Contains(err.Error(), "already committed") {
		t.Errorf("second Commit of a batch: %v", err)
	}
	retry, err := db.Prepare(ctx, docs[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := db.Commit(cancelled, retry); !errors.Is(err, context.Canceled) {
		t.Errorf("Commit with a cancelled context: %v", err)
	}
	if _, err := db.Commit(ctx, retry); err != nil {
		t.Errorf("Commit after a failed one: %v", err)
	}
	other, err := want.Prepare(ctx, docs[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Commit(ctx, other); err == nil || !strings.Contains(err.Error(), "another DB") {
		t.Errorf("Commit of another DB's batch: %v", err)
	}

	bad := []Doc{docs[1], {ID: "", Text: "no id"}}
	before, err := db.Stats()
	if err != nil {
		t.Fatal(err)
	}
	var de *DocError
	if _, err := db.Prepare(ctx, bad, nil); !errors.As(err, &de) || de.Index != 1 {
		t.Errorf("Prepare of a bad document: %v", err)
	}
	after, err := db.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if after.Docs != before.Docs || after.Seq != before.Seq {
		t.Errorf("a failed Prepare wrote: %+v, was %+v", after, before)
	}
}
