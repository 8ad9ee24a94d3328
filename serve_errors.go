package medkb

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/medkb/medkb/dsl"
	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/planner"
	"github.com/medkb/medkb/store"
)

// The API's errors that have no error of the package behind them.
var (
	errUnauthorized = errors.New("medkb: missing or wrong token (want Authorization: Bearer TOKEN)")
	errNoRoute      = errors.New("medkb: no such route")
)

// badRequest marks a request the server cannot read (bad JSON, an
// unknown field, a missing argument).
type badRequest struct{ err error }

func (e badRequest) Error() string { return e.err.Error() }
func (e badRequest) Unwrap() error { return e.err }

// sentinelCodes are the API's error codes that stand for an error of the
// package: the server answers with the first whose err the error wraps,
// and RemoteError.Is maps the code back, so that errors.Is gives the
// same answer on both sides of the socket.
var sentinelCodes = []struct {
	code   string
	status int
	err    error
}{
	{"not_found", http.StatusNotFound, ErrNotFound},
	{"locked", http.StatusConflict, store.ErrLocked},
	{"corrupt", http.StatusInternalServerError, store.ErrCorrupt},
	{"index_damaged", http.StatusServiceUnavailable, ErrIndexDamaged},
	{"index_behind", http.StatusServiceUnavailable, ErrIndexBehind},
	{"timeout", http.StatusGatewayTimeout, context.DeadlineExceeded},
	{"canceled", 499, context.Canceled}, // nginx's "client closed request"
	{"not_found", http.StatusNotFound, errNoRoute},
	{"unauthorized", http.StatusUnauthorized, errUnauthorized},
}

// errorObject is the JSON of an error: {"error": errorObject}. Line and
// Column are set for parse_error, Index and ID for bad_document.
type errorObject struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Index   *int   `json:"index,omitempty"` // 0 is the first document
	ID      string `json:"id,omitempty"`
}

// errorOf turns err into the API's status and error object.
func errorOf(err error) (int, errorObject) {
	obj := errorObject{Code: "internal", Message: err.Error()}
	var (
		tooLarge *http.MaxBytesError
		parse    *dsl.Error
		doc      *DocError
		bad      badRequest
	)
	switch {
	case errors.As(err, &tooLarge):
		obj.Code = "too_large"
		return http.StatusRequestEntityTooLarge, obj
	case errors.As(err, &parse):
		obj.Code, obj.Line, obj.Column = "parse_error", parse.Pos.Line, parse.Pos.Column
		return http.StatusBadRequest, obj
	case errors.As(err, &doc):
		obj.Code, obj.Index, obj.ID = "bad_document", &doc.Index, doc.ID
		return http.StatusBadRequest, obj
	case errors.As(err, &bad), errors.Is(err, graph.ErrBadInput), errors.Is(err, store.ErrReadOnly),
		errors.Is(err, store.ErrBackupDest), errors.Is(err, planner.ErrNoReranker):
		obj.Code = "bad_request"
		return http.StatusBadRequest, obj
	}
	for _, c := range sentinelCodes {
		if errors.Is(err, c.err) {
			obj.Code = c.code
			return c.status, obj
		}
	}
	return http.StatusInternalServerError, obj
}

// writeError answers with err as the API's error object.
func writeError(w http.ResponseWriter, err error) {
	status, obj := errorOf(err)
	writeJSON(w, status, struct {
		Error errorObject `json:"error"`
	}{obj})
}

// writeJSON answers with v as JSON, its text unescaped as the command
// line prints it.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v) // a write error means the client left
}

// codeOfMessage guesses the code of an error the API sends as text only
// (IngestResult.IndexErr, CheckReport.Problems) from the sentinel its
// message starts with, as ErrIndexBehind's and ErrIndexDamaged's
// wrappers begin; "internal" when none does.
func codeOfMessage(msg string) string {
	for _, c := range sentinelCodes {
		if strings.HasPrefix(msg, c.err.Error()) {
			return c.code
		}
	}
	return "internal"
}
