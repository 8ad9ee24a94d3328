package medkb

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ErrNoServer is returned by Connect when no server answers for the store.
var ErrNoServer = errors.New("medkb: no server is running for this store")

// Client talks to a medkb server (medkb serve, or a program serving
// DB.Handler). Its methods have the signatures of DB's, so a program
// holds either behind one interface; errors from the server are
// *RemoteError. A Client is safe for concurrent use.
type Client struct {
	base  string // "http://medkb" on the socket; the URL given to Dial
	token string
	tr    *http.Transport
	hc    *http.Client
}

// connectWait bounds Connect's probe of the socket: a live server accepts
// at once, a stale socket file refuses at once.
const connectWait = time.Second

// Connect returns a client of the server of the store in dir, on
// SocketPath(dir). It fails fast with ErrNoServer when there is no socket
// or nobody answers on it (a server that died), so a command can fall
// back to opening the store itself.
func Connect(dir string) (*Client, error) {
	path, err := filepath.Abs(SocketPath(dir)) // the client may outlive a chdir
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode()&os.ModeSocket == 0 {
		return nil, fmt.Errorf("%w: no socket %s", ErrNoServer, path)
	}
	c, err := net.DialTimeout("unix", path, connectWait)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoServer, err)
	}
	c.Close()
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		},
		MaxIdleConnsPerHost: 16,
	}
	return &Client{base: "http://medkb", tr: tr, hc: &http.Client{Transport: tr}}, nil
}

// Dial returns a client of the server at baseURL ("http://127.0.0.1:7070"),
// sending token with every request. It does not contact the server.
func Dial(baseURL, token string) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("medkb: server URL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("medkb: server URL %q: want http://HOST:PORT or https://HOST:PORT", baseURL)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 16
	return &Client{base: strings.TrimSuffix(baseURL, "/"), token: token, tr: tr, hc: &http.Client{Transport: tr}}, nil
}

// Close closes the client's idle connections.
func (c *Client) Close() error {
	c.tr.CloseIdleConnections()
	return nil
}

// RemoteError is an error the server answered with. Is maps its Code to
// the package's sentinel errors (ErrNotFound, store.ErrLocked,
// context.DeadlineExceeded, ...), so that errors.Is tests it as it tests
// the error of a DB.
type RemoteError struct {
	Status  int    // the HTTP status
	Code    string // "parse_error", "not_found", ... (see docs/serve.md)
	Message string // the error's message, as the DB gave it
	// Line and Column place a parse_error in the statement.
	Line, Column int
	// Index (from 0) and ID name the document of a bad_document.
	Index int
	ID    string
}

func (e *RemoteError) Error() string { return e.Message }

// Is reports whether the code of e stands for target.
func (e *RemoteError) Is(target error) bool {
	for _, c := range sentinelCodes {
		if c.code == e.Code && c.err == target {
			return true
		}
	}
	return false
}

// remoteError makes the *RemoteError of an error object.
func remoteError(status int, o errorObject) *RemoteError {
	e := &RemoteError{Status: status, Code: o.Code, Message: o.Message, Line: o.Line, Column: o.Column, ID: o.ID}
	if o.Index != nil {
		e.Index = *o.Index
	}
	return e
}

// textError is an error the API sends as text only (an index error, a
// check's problem), with the code its message gives.
func textError(msg string) error {
	if msg == "" {
		return nil
	}
	return &RemoteError{Status: http.StatusOK, Code: codeOfMessage(msg), Message: msg}
}

// send makes one request: in as the JSON body (none when nil), the answer
// decoded into out. It returns the response for the caller to read when
// out is nil.
func (c *Client) send(ctx context.Context, method, path string, in, out any) (*http.Response, error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err() // as a DB would say it
		}
		return nil, fmt.Errorf("medkb: server: %w", err)
	}
	if resp.StatusCode >= 300 {
		defer resp.Body.Close()
		var e struct {
			Error *errorObject `json:"error"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&e); err != nil || e.Error == nil {
			return nil, &RemoteError{Status: resp.StatusCode, Code: "internal", Message: "medkb: server answered " + resp.Status}
		}
		return nil, remoteError(resp.StatusCode, *e.Error)
	}
	if out == nil {
		return resp, nil
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return nil, fmt.Errorf("medkb: reading the server's answer to %s %s: %w", method, path, err)
	}
	return nil, nil
}

// call is send for a request whose answer is JSON, read into out (or
// dropped when out is nil).
func (c *Client) call(ctx context.Context, method, path string, in, out any) error {
	resp, err := c.send(ctx, method, path, in, out)
	if resp != nil {
		resp.Body.Close()
	}
	return err
}

// serverGrace is how long past its deadline a query's request waits for
// the server, which stops the query at the deadline itself and says in
// which stage, as a DB would.
const serverGrace = time.Second

// query sends a query request, bounded by ctx's deadline on the server.
func (c *Client) query(ctx context.Context, req queryRequest, out any) error {
	if dl, ok := ctx.Deadline(); ok {
		left := time.Until(dl)
		if left <= 0 {
			return context.DeadlineExceeded
		}
		req.TimeoutMS = int64(math.Ceil(float64(left) / float64(time.Millisecond)))
		wait, cancel := context.WithDeadline(context.WithoutCancel(ctx), dl.Add(serverGrace))
		defer cancel()
		stop := context.AfterFunc(ctx, func() {
			if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				cancel() // cancelled, not timed out: stop the server too
			}
		})
		defer stop()
		ctx = wait
	}
	return c.call(ctx, http.MethodPost, "/v1/query", req, out)
}

// QueryParams runs a statement on the server, as DB.QueryParams.
func (c *Client) QueryParams(ctx context.Context, src string, p Params) (*Result, error) {
	var res Result
	if err := c.query(ctx, queryRequest{Query: src, Params: p}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// ExplainParams returns a statement's plan from the server, as
// DB.ExplainParams.
func (c *Client) ExplainParams(ctx context.Context, src string, p Params) (string, error) {
	var out explainReply
	err := c.query(ctx, queryRequest{Query: src, Params: p, Explain: true}, &out)
	return out.Plan, err
}

// Ingest writes documents on the server, as DB.Ingest.
func (c *Client) Ingest(ctx context.Context, docs []Doc) (*IngestResult, error) {
	var out ingestReply
	if err := c.call(ctx, http.MethodPost, "/v1/ingest", ingestRequest{Docs: docs}, &out); err != nil {
		return nil, err
	}
	return &IngestResult{Docs: out.Docs, Chunks: out.Chunks, Deleted: out.Deleted, Seq: out.Seq, IndexErr: textError(out.IndexError)}, nil
}

// IngestGraph writes entities and triples on the server, as
// DB.IngestGraph.
func (c *Client) IngestGraph(ctx context.Context, ents []Entity, triples []Triple) (GraphChange, error) {
	var out ingestReply
	err := c.call(ctx, http.MethodPost, "/v1/ingest", ingestRequest{Entities: ents, Triples: triples}, &out)
	return GraphChange{Entities: out.Entities, Triples: out.Triples}, err
}

// Delete removes documents on the server, as DB.Delete.
func (c *Client) Delete(ctx context.Context, ids []string) (*DeleteResult, error) {
	var out deleteReply
	if err := c.call(ctx, http.MethodPost, "/v1/delete", deleteRequest{IDs: ids}, &out); err != nil {
		return nil, err
	}
	return &DeleteResult{Docs: out.Docs, Chunks: out.Chunks, Seq: out.Seq, IndexErr: textError(out.IndexError)}, nil
}

// Stats returns the server's store counters, as DB.Stats.
func (c *Client) Stats() (*Stats, error) {
	var s Stats
	if err := c.call(context.Background(), http.MethodGet, "/v1/stats", nil, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// Show returns documents by id, one request each, as DB.Show.
func (c *Client) Show(ids []string) ([]DocView, error) {
	var out []DocView
	for _, id := range ids {
		var v DocView
		if err := c.call(context.Background(), http.MethodGet, "/v1/docs/"+url.PathEscape(id), nil, &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Export calls fn for every document the server streams, as DB.Export.
func (c *Client) Export(fn func(*Doc) error) error {
	resp, err := c.send(context.Background(), http.MethodGet, "/v1/export", nil, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	dec := json.NewDecoder(resp.Body)
	for {
		var line struct {
			Doc
			Error *errorObject `json:"error"` // the stream's end, on an error
		}
		if err := dec.Decode(&line); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("medkb: reading the export: %w", err)
		}
		if line.Error != nil {
			return remoteError(http.StatusOK, *line.Error)
		}
		if err := fn(&line.Doc); err != nil {
			return err
		}
	}
}

// Verify checks the server's store, as DB.Verify.
func (c *Client) Verify(ctx context.Context) (*CheckReport, error) {
	var out checkReply
	if err := c.call(ctx, http.MethodPost, "/v1/check", nil, &out); err != nil {
		return nil, err
	}
	texts := func(msgs []string) []error { return convert(msgs, textError) }
	return &CheckReport{Problems: texts(out.Problems), Fixed: texts(out.Fixed), Repaired: out.Repaired, Stats: out.Stats}, nil
}

// Rebuild rebuilds the server's store, as DB.Rebuild. Of opts, only
// ChunkTokens, Reclassify and Grace are sent: the server has its own
// embedder and lock timeout, and Progress is not reported.
func (c *Client) Rebuild(ctx context.Context, opts *RebuildOptions) (*RebuildResult, error) {
	var req rebuildRequest
	if opts != nil {
		req = rebuildRequest{ChunkTokens: opts.ChunkTokens, Reclassify: opts.Reclassify, GraceMS: opts.Grace.Milliseconds()}
	}
	var out rebuildReply
	if err := c.call(ctx, http.MethodPost, "/v1/rebuild", req, &out); err != nil {
		return nil, err
	}
	return &RebuildResult{From: out.From, To: out.To, Docs: out.Docs, Chunks: out.Chunks, Entities: out.Entities,
		Triples: out.Triples, TierDiffers: out.TierDiffers, Removed: out.Removed, InUse: out.InUse}, nil
}

// Backup has the server copy its store to dest, as DB.Backup; a relative
// dest is made absolute here, since it is the server that writes it.
func (c *Client) Backup(ctx context.Context, dest string) (*Stats, error) {
	abs, err := filepath.Abs(dest)
	if err != nil {
		return nil, err
	}
	var s Stats
	if err := c.call(ctx, http.MethodPost, "/v1/backup", backupRequest{Dest: abs}, &s); err != nil {
		return nil, err
	}
	return &s, nil
}
