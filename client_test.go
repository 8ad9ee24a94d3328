package medkb

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/medkb/medkb/store"
)

// TestClientErrorsIs: an error keeps its code across the wire, and
// errors.Is tests the code as it tests the DB's error.
func TestClientErrorsIs(t *testing.T) {
	for _, tc := range []struct {
		err    error
		code   string
		status int
	}{
		{&http.MaxBytesError{Limit: MaxRequestBytes}, "too_large", 413},
		{ErrIndexBehind, "index_behind", 503},
		{context.DeadlineExceeded, "timeout", 504},
		{errors.New("boom"), "internal", 500},
	} {
		status, obj := errorOf(tc.err)
		if status != tc.status || obj.Code != tc.code {
			t.Errorf("%v: %d %s, want %d %s", tc.err, status, obj.Code, tc.status, tc.code)
		}
		if tc.code != "internal" && !errors.Is(remoteError(status, obj), tc.err) && tc.code != "too_large" {
			t.Errorf("%v: errors.Is does not hold across the wire", tc.err)
		}
	}
}

func TestConnectWithoutServer(t *testing.T) {
	if _, err := Connect(t.TempDir()); !errors.Is(err, ErrNoServer) {
		t.Errorf("Connect without a socket: %v", err)
	}
}

// TestClientQueryDeadline: a query's deadline travels as timeout_ms, and
// the server's timeout answer is context.DeadlineExceeded to errors.Is.
func TestClientQueryDeadline(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(body), `"timeout_ms":`) {
			t.Errorf("no timeout_ms in %s", body)
		}
		writeError(w, context.DeadlineExceeded)
	}))
	defer srv.Close()
	c, err := Dial(srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = c.QueryParams(ctx, `RETRIEVE "x"`, nil)
	var re *RemoteError
	if !errors.As(err, &re) || re.Status != http.StatusGatewayTimeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("timeout: %#v", err)
	}
}

// TestClientExportError: an error after the export began arrives as its
// last line and ends Export with it.
func TestClientExportError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"id":"a","text":"x"}`+"\n"+`{"error":{"code":"corrupt","message":"medkb: store is corrupt: page 7"}}`+"\n")
	}))
	defer srv.Close()
	c, err := Dial(srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var ids []string
	err = c.Export(func(d *Doc) error { ids = append(ids, d.ID); return nil })
	if len(ids) != 1 || ids[0] != "a" || !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("export: %v, %v", ids, err)
	}
}

func TestDialRefusesBadURL(t *testing.T) {
	for _, u := range []string{"127.0.0.1:7070", "unix:///tmp/x", "http://"} {
		if _, err := Dial(u, ""); err == nil {
			t.Errorf("Dial(%q): no error", u)
		}
	}
}

// TestPathJSONRoundTrip: a path read back from the JSON of a Result keeps
// which steps were walked against their edge.
func TestPathJSONRoundTrip(t *testing.T) {
	in := Path{Nodes: []string{"a", "b", "c"}, Relations: []string{"treats", "causes"}, Reverse: []bool{false, true}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Path
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, in) {
		t.Errorf("round trip of %s: %+v, want %+v", b, out, in)
	}
}
