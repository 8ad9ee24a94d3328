package medkb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// The bodies of the API's requests and answers that are not types of
// the package already; the client sends and reads the same.
type (
	queryRequest struct {
		Query   string `json:"query"`
		Params  Params `json:"params,omitempty"`
		Explain bool   `json:"explain,omitempty"`
		// TimeoutMS bounds the query on the server; 0 means no bound.
		TimeoutMS int64 `json:"timeout_ms,omitempty"`
	}
	explainReply struct {
		Plan string `json:"plan"`
	}
	ingestRequest struct {
		Docs     []Doc    `json:"docs,omitempty"`
		Entities []Entity `json:"entities,omitempty"`
		Triples  []Triple `json:"triples,omitempty"`
	}
	ingestReply struct {
		Docs       int    `json:"docs"`
		Chunks     int    `json:"chunks"`
		Deleted    int    `json:"deleted"`
		Seq        uint64 `json:"seq"`
		IndexError string `json:"index_error"`
		Entities   int    `json:"entities"`
		Triples    int    `json:"triples"`
	}
	deleteRequest struct {
		IDs []string `json:"ids"`
	}
	deleteReply struct {
		Docs       int    `json:"docs"`
		Chunks     int    `json:"chunks"`
		Seq        uint64 `json:"seq"`
		IndexError string `json:"index_error"`
	}
	checkReply struct {
		OK       bool     `json:"ok"`
		Problems []string `json:"problems"`
		Fixed    []string `json:"fixed"`
		Repaired []string `json:"repaired"`
		Stats    *Stats   `json:"stats"`
	}
	rebuildRequest struct {
		ChunkTokens int   `json:"chunk_tokens,omitempty"`
		Reclassify  bool  `json:"reclassify,omitempty"`
		GraceMS     int64 `json:"grace_ms,omitempty"`
	}
	rebuildReply struct {
		From        string   `json:"from"`
		To          string   `json:"to"`
		Docs        int      `json:"docs"`
		Chunks      int      `json:"chunks"`
		Entities    int      `json:"entities"`
		Triples     int      `json:"triples"`
		TierDiffers int      `json:"tier_differs"`
		Removed     []string `json:"removed"`
		InUse       []string `json:"in_use"`
	}
	backupRequest struct {
		Dest string `json:"dest"`
	}
	healthReply struct {
		API        int    `json:"api"`
		Version    string `json:"version"`
		Dir        string `json:"dir"`
		Generation string `json:"generation"`
		ReadOnly   bool   `json:"read_only"`
		PID        int    `json:"pid"`
	}
)

// decodeBody reads the JSON request body into v. An empty body leaves v
// zero; an unknown field, a second value or a number where a parameter
// cannot hold it is a bad request.
func decodeBody(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	dec.UseNumber() // only Params holds any: its numbers stay exact
	err := dec.Decode(v)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			err = errors.New("more than one JSON value")
		}
	}
	var tooLarge *http.MaxBytesError
	switch {
	case err == nil, errors.Is(err, io.EOF) && dec.InputOffset() == 0:
		return nil
	case errors.As(err, &tooLarge):
		return fmt.Errorf("medkb: the request body is over %d bytes: %w", tooLarge.Limit, err)
	}
	return badRequest{fmt.Errorf("medkb: bad request body: %w", err)}
}

// exactParams turns the json.Numbers of p into int64 or float64, which
// the statement's binding takes.
func exactParams(p Params) error {
	for k, v := range p {
		n, ok := v.(json.Number)
		if !ok {
			continue
		}
		if i, err := n.Int64(); err == nil {
			p[k] = i
		} else if f, err := n.Float64(); err == nil {
			p[k] = f
		} else {
			return badRequest{fmt.Errorf("medkb: parameter %s: %w", k, err)}
		}
	}
	return nil
}

func (db *DB) serveHealth(w http.ResponseWriter, _ *http.Request) error {
	g, release, err := db.snapshot()
	if err != nil {
		return err
	}
	gen := g.st.Generation()
	release()
	dir, err := filepath.Abs(db.dir)
	if err != nil {
		dir = db.dir
	}
	writeJSON(w, http.StatusOK, healthReply{API: APIVersion, Version: moduleVersion(), Dir: dir, Generation: gen,
		ReadOnly: db.opts.ReadOnly, PID: os.Getpid()})
	return nil
}

func (db *DB) serveQuery(w http.ResponseWriter, r *http.Request) error {
	var req queryRequest
	if err := decodeBody(r, &req); err != nil {
		return err
	}
	if err := exactParams(req.Params); err != nil {
		return err
	}
	ctx := r.Context() // a client that leaves cancels its query
	if req.TimeoutMS > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(req.TimeoutMS)*time.Millisecond)
		defer cancel()
	}
	if req.Explain {
		plan, err := db.ExplainParams(ctx, req.Query, req.Params)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, explainReply{Plan: plan})
		return nil
	}
	res, err := db.QueryParams(ctx, req.Query, req.Params)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

// serveIngest writes the documents, then the graph, as LoadSample does;
// each is one transaction of its own.
func (db *DB) serveIngest(w http.ResponseWriter, r *http.Request) error {
	var req ingestRequest
	if err := decodeBody(r, &req); err != nil {
		return err
	}
	var out ingestReply
	if len(req.Docs) > 0 {
		res, err := db.Ingest(r.Context(), req.Docs)
		if err != nil {
			return err
		}
		out = ingestReply{Docs: res.Docs, Chunks: res.Chunks, Deleted: res.Deleted, Seq: res.Seq, IndexError: errText(res.IndexErr)}
	}
	if len(req.Entities)+len(req.Triples) > 0 {
		gc, err := db.IngestGraph(r.Context(), req.Entities, req.Triples)
		if err != nil {
			return err
		}
		out.Entities, out.Triples = gc.Entities, gc.Triples
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (db *DB) serveDelete(w http.ResponseWriter, r *http.Request) error {
	var req deleteRequest
	if err := decodeBody(r, &req); err != nil {
		return err
	}
	res, err := db.Delete(r.Context(), req.IDs)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, deleteReply{Docs: res.Docs, Chunks: res.Chunks, Seq: res.Seq, IndexError: errText(res.IndexErr)})
	return nil
}

func (db *DB) serveStats(w http.ResponseWriter, _ *http.Request) error {
	s, err := db.Stats()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s)
	return nil
}

func (db *DB) serveShow(w http.ResponseWriter, r *http.Request) error {
	views, err := db.Show([]string{r.PathValue("id")})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, views[0])
	return nil
}

// serveExport streams every document as a JSON line, as `medkb export`
// prints it. An error after the first line can no longer change the
// status: it ends the stream as a last line {"error": {...}}.
func (db *DB) serveExport(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "application/x-ndjson")
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	sent := 0
	err := db.Export(func(d *Doc) error {
		if err := r.Context().Err(); err != nil {
			return err
		}
		sent++
		return enc.Encode(d)
	})
	if err == nil || sent == 0 {
		return err
	}
	_, obj := errorOf(err)
	enc.Encode(struct {
		Error errorObject `json:"error"`
	}{obj})
	return nil
}

func (db *DB) serveCheck(w http.ResponseWriter, r *http.Request) error {
	rep, err := db.Verify(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, checkReply{OK: len(rep.Problems) == 0, Problems: errTexts(rep.Problems),
		Fixed: errTexts(rep.Fixed), Repaired: append([]string{}, rep.Repaired...), Stats: rep.Stats})
	return nil
}

func (db *DB) serveRebuild(w http.ResponseWriter, r *http.Request) error {
	var req rebuildRequest
	if err := decodeBody(r, &req); err != nil {
		return err
	}
	opts := &RebuildOptions{LockTimeout: db.opts.LockTimeout, ChunkTokens: req.ChunkTokens, Reclassify: req.Reclassify,
		Grace: time.Duration(req.GraceMS) * time.Millisecond}
	if err := opts.Validate(); err != nil {
		return badRequest{err}
	}
	res, err := db.Rebuild(r.Context(), opts)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, rebuildReply{From: res.From, To: res.To, Docs: res.Docs, Chunks: res.Chunks,
		Entities: res.Entities, Triples: res.Triples, TierDiffers: res.TierDiffers,
		Removed: append([]string{}, res.Removed...), InUse: append([]string{}, res.InUse...)})
	return nil
}

// serveBackup copies the store to dest, a path on the server's machine;
// it must be absolute, since the server's working directory is not the
// client's.
func (db *DB) serveBackup(w http.ResponseWriter, r *http.Request) error {
	var req backupRequest
	if err := decodeBody(r, &req); err != nil {
		return err
	}
	if !filepath.IsAbs(req.Dest) {
		return badRequest{fmt.Errorf("medkb: backup dest %q is not an absolute path", req.Dest)}
	}
	s, err := db.Backup(r.Context(), req.Dest)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s)
	return nil
}

// errText is err's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// errTexts is the messages of errs, never nil so that the JSON has [].
func errTexts(errs []error) []string {
	out := make([]string, len(errs))
	for i, err := range errs {
		out[i] = err.Error()
	}
	return out
}
