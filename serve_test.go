package medkb

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// serveQuery is a statement with parameters that finds evidence in the sample.
const serveQuery = `RETRIEVE $q WHERE patient = $p PACK budget $b`

var serveParams = Params{"q": "chest pain, troponin", "p": "P001", "b": 256}

// serve serves db on its socket for the rest of the test and returns a
// client of it.
func serve(t testing.TB, db *DB) *Client {
	t.Helper()
	ln, err := db.ListenUnix()
	if err != nil {
		t.Fatal(err)
	}
	serveOn(t, db, ln, nil)
	c, err := Connect(db.Dir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// serveOn serves db on ln with opts until the end of the test.
func serveOn(t testing.TB, db *DB, ln net.Listener, opts *ServeOptions) {
	done := make(chan error, 1)
	go func() { done <- db.Serve(ln, opts) }()
	t.Cleanup(func() {
		ln.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
}

// sameJSON fails the test unless a and b marshal alike.
func sameJSON(t *testing.T, what string, a, b any) {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ja, jb) {
		t.Errorf("%s differs:\n server %s\n db     %s", what, ja, jb)
	}
}

func TestServeReads(t *testing.T) {
	db := openSample(t)
	c := serve(t, db)
	ctx := context.Background()

	got, err := c.QueryParams(ctx, serveQuery, serveParams)
	if err != nil {
		t.Fatal(err)
	}
	want, err := db.QueryParams(ctx, serveQuery, serveParams)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Items) == 0 {
		t.Fatal("the query finds nothing in the sample; pick another")
	}
	sameJSON(t, "query result", got, want)
	const expand = `RETRIEVE "chest pain, troponin 2.3 ng/mL" FUSE rrf EXPAND metapath "Disease -has_symptom-> Symptom" PACK budget 512 kmin 1`
	gotX, err := c.QueryParams(ctx, expand, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantX, _ := db.QueryParams(ctx, expand, nil)
	if len(wantX.Expansion.Paths) == 0 {
		t.Error("the expanding query finds no path in the sample; pick another")
	}
	sameJSON(t, "expanding query", gotX, wantX)
	t.Run("concurrent", func(t *testing.T) { concurrentQueries(t, c, want) })

	plan, err := c.ExplainParams(ctx, serveQuery, serveParams)
	if err != nil {
		t.Fatal(err)
	}
	wantPlan, _ := db.ExplainParams(ctx, serveQuery, serveParams)
	if plan != wantPlan || plan == "" {
		t.Errorf("explain: got %q, want %q", plan, wantPlan)
	}

	s, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	ws, _ := db.Stats()
	sameJSON(t, "stats", s, ws)

	var h healthReply
	if err := c.call(ctx, http.MethodGet, "/v1/health", nil, &h); err != nil {
		t.Fatal(err)
	}
	if h.API != APIVersion || h.Generation != ws.Generation || h.ReadOnly || h.PID != os.Getpid() || !filepath.IsAbs(h.Dir) {
		t.Errorf("health: %+v", h)
	}

	views, err := c.Show([]string{"P001-cc-01"})
	if err != nil {
		t.Fatal(err)
	}
	wantViews, _ := db.Show([]string{"P001-cc-01"})
	sameJSON(t, "show", views, wantViews)
	if _, err := c.Show([]string{"no/such id"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("show of an unknown id: %v, want ErrNotFound", err)
	}

	var exported, wantExported []Doc
	if err := c.Export(func(d *Doc) error { exported = append(exported, *d); return nil }); err != nil {
		t.Fatal(err)
	}
	db.Export(func(d *Doc) error { wantExported = append(wantExported, *d); return nil })
	if len(exported) != ws.Docs {
		t.Errorf("export gave %d documents, the store holds %d", len(exported), ws.Docs)
	}
	sameJSON(t, "export", exported, wantExported)

	rep, err := c.Verify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Problems) != 0 || rep.Stats == nil || rep.Stats.Docs != ws.Docs {
		t.Errorf("verify: %+v", rep)
	}

	dest := filepath.Join(t.TempDir(), "copy")
	bs, err := c.Backup(ctx, dest)
	if err != nil {
		t.Fatal(err)
	}
	if bs.Docs != ws.Docs || bs.Chunks != ws.Chunks {
		t.Errorf("backup: %+v, store %+v", bs, ws)
	}
}

func TestServeWrites(t *testing.T) {
	db := openEmpty(t)
	c := serve(t, db)
	ctx := context.Background()
	docs := []Doc{
		{ID: "a", Text: "Troponin I 2.3 ng/mL, markedly raised.", Type: "lab", Patient: "P1", Time: "2024-03-05"},
		{ID: "b/2 x?", Text: "Crushing chest pain for two hours.", Type: "complaint", Patient: "P1", Time: "2024-03-05"},
	}
	res, err := c.Ingest(ctx, docs)
	if err != nil {
		t.Fatal(err)
	}
	if res.Docs != 2 || res.Chunks != 2 || res.Seq == 0 || res.IndexErr != nil {
		t.Errorf("ingest: %+v", res)
	}
	gc, err := c.IngestGraph(ctx, []Entity{{Name: "Troponin", Type: "Lab"}},
		[]Triple{{Head: "Myocardial infarction", HeadType: "Disease", Relation: "raises", Tail: "Troponin", TailType: "Lab"}})
	if err != nil {
		t.Fatal(err)
	}
	if gc.Entities != 2 || gc.Triples != 1 {
		t.Errorf("ingest graph: %+v", gc)
	}
	r, err := c.QueryParams(ctx, `RETRIEVE "troponin" PACK budget 64`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Items) == 0 || r.Items[0].Doc != "a" {
		t.Errorf("query after ingest: %+v", r.Items)
	}
	del, err := c.Delete(ctx, []string{"a", "missing"})
	if err != nil {
		t.Fatal(err)
	}
	if del.Docs != 1 || del.Chunks != 1 || del.Seq <= res.Seq {
		t.Errorf("delete: %+v", del)
	}
	s, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if s.Docs != 1 || s.Entities != 2 || s.Triples != 1 {
		t.Errorf("stats after delete: %+v", s)
	}
	if v, err := c.Show([]string{"b/2 x?"}); err != nil || v[0].ID != "b/2 x?" {
		t.Errorf("show of an id with a slash: %v", err)
	}
	if _, err := c.Show([]string{"a"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("show of a deleted document: %v", err)
	}
}

func TestServeErrors(t *testing.T) {
	db := openEmpty(t)
	c := serve(t, db)
	ctx := context.Background()

	_, err := c.QueryParams(ctx, "RETRIEVE \"x\"\nFUZE rrf", nil)
	var re *RemoteError
	if !errors.As(err, &re) || re.Code != "parse_error" || re.Status != http.StatusBadRequest || re.Line != 2 || re.Column != 1 {
		t.Errorf("parse error: %#v", err)
	}
	_, local := db.Query(ctx, "RETRIEVE \"x\"\nFUZE rrf")
	if err.Error() != local.Error() {
		t.Errorf("parse error message: %q, want %q", err, local)
	}

	_, err = c.Ingest(ctx, []Doc{{ID: "ok", Text: "fine"}, {ID: "bad", Text: "x", Vector: []float32{1}}})
	if !errors.As(err, &re) || re.Code != "bad_document" || re.Index != 1 || re.ID != "bad" {
		t.Errorf("bad document: %#v", err)
	}

	err = c.call(ctx, http.MethodDelete, "/v1/stats", nil, nil)
	if !errors.As(err, &re) || re.Code != "not_found" || !strings.Contains(re.Message, "GET /v1/stats") {
		t.Errorf("no such route: %v", err)
	}

	// A request the client would never send: an unknown field.
	resp, err := c.hc.Post(c.base+"/v1/query", "application/json", strings.NewReader(`{"query":"RETRIEVE \"x\"","budget":5}`))
	if err != nil {
		t.Fatal(err)
	}
	var body struct{ Error errorObject }
	json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || body.Error.Code != "bad_request" || !strings.Contains(body.Error.Message, `"budget"`) {
		t.Errorf("unknown field: %d %+v", resp.StatusCode, body.Error)
	}

	ctx, cancel := context.WithDeadline(ctx, time.Now().Add(-time.Second))
	defer cancel()
	if _, err := c.QueryParams(ctx, `RETRIEVE "x"`, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("query past its deadline: %v", err)
	}
}

func TestServeTokenOnTCP(t *testing.T) {
	db := openEmpty(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := db.Serve(ln, nil); err == nil {
		t.Fatal("Serve on TCP without a token: no error")
	}
	ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serveOn(t, db, ln, &ServeOptions{Token: "s3cret"})
	url := "http://" + ln.Addr().String()
	for _, token := range []string{"", "wrong"} {
		c, _ := Dial(url, token)
		_, err := c.Stats()
		var re *RemoteError
		if !errors.As(err, &re) || re.Status != http.StatusUnauthorized || re.Code != "unauthorized" {
			t.Errorf("token %q: %v", token, err)
		}
		c.Close()
	}
	c, err := Dial(url, "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Stats(); err != nil {
		t.Errorf("with the token: %v", err)
	}
}

func TestServeSocketLifecycle(t *testing.T) {
	db := openEmpty(t)
	path := SocketPath(db.Dir())

	// A server that died leaves its socket file behind.
	ul, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ul.SetUnlinkOnClose(false)
	ul.Close()
	start := time.Now()
	if _, err := Connect(db.Dir()); !errors.Is(err, ErrNoServer) {
		t.Errorf("Connect to a stale socket: %v", err)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("Connect to a stale socket took %v", d)
	}

	c := serve(t, db) // removes the stale file and binds
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket: %v, %v", fi.Mode(), err)
	}
	if _, err := c.Stats(); err != nil {
		t.Fatal(err)
	}
	if ln, err := db.ListenUnix(); !errors.Is(err, ErrServerRunning) {
		if ln != nil {
			ln.Close()
		}
		t.Errorf("a second ListenUnix while a server answers: %v", err)
	}
	if _, err := c.Stats(); err != nil {
		t.Errorf("the first server after a refused second: %v", err)
	}
}

// concurrentQueries runs 8 queries at a time through c, each of which
// must answer want.
func concurrentQueries(t *testing.T, c *Client, want *Result) {
	wantJSON, _ := json.Marshal(want)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 4 {
				got, err := c.QueryParams(context.Background(), serveQuery, serveParams)
				if err != nil {
					t.Error(err)
					return
				}
				if j, _ := json.Marshal(got); !bytes.Equal(j, wantJSON) {
					t.Error("a concurrent query differs from the DB's")
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestServeRebuild(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kb")
	w, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Ingest(context.Background(), sampleDocs(t)[:10]); err != nil {
		t.Fatal(err)
	}
	w.Close()
	db, err := Open(dir, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c := serve(t, db)
	res, err := c.Rebuild(context.Background(), &RebuildOptions{Grace: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Docs != 10 || res.From == res.To {
		t.Errorf("rebuild: %+v", res)
	}
	s, err := c.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if s.Generation != res.To {
		t.Errorf("after rebuild the server is on %s, want %s", s.Generation, res.To)
	}
}
