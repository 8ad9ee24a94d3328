package medkb

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"
)

// APIVersion is the version of the HTTP API, the /v1 prefix of its routes.
const APIVersion = 1

// MaxRequestBytes bounds a request body: a larger one is refused with
// too_large (413) rather than read into memory.
const MaxRequestBytes = 256 << 20

// ErrServerRunning is returned by ListenUnix when a live server already
// answers on the store's socket.
var ErrServerRunning = errors.New("medkb: a server is already running for this store")

// SocketPath is the unix socket a server of the store in dir listens on
// and Connect dials: inside the store, so the directory's permissions
// guard it as they guard the data.
func SocketPath(dir string) string { return filepath.Join(dir, "medkb.sock") }

// ListenUnix binds SocketPath(db.Dir()) with mode 0600. A socket file
// left by a server that died is removed first; one a live server answers
// on is refused with ErrServerRunning, so that two servers never share a
// store. Closing the listener removes the socket file.
func (db *DB) ListenUnix() (net.Listener, error) {
	path := SocketPath(db.dir)
	ln, err := net.Listen("unix", path)
	if errors.Is(err, syscall.EADDRINUSE) {
		if c, derr := net.DialTimeout("unix", path, time.Second); derr == nil {
			c.Close()
			return nil, fmt.Errorf("%w (%s answers)", ErrServerRunning, path)
		}
		if rerr := os.Remove(path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			return nil, fmt.Errorf("medkb: removing the stale socket %s: %w", path, rerr)
		}
		ln, err = net.Listen("unix", path)
	}
	if err != nil {
		return nil, err
	}
	// The store directory already keeps others out; 0600 also keeps out
	// a client that the directory's mode would let in.
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// ServeOptions configure Serve and Handler. A nil *ServeOptions means no
// token.
type ServeOptions struct {
	// Token, when set, is required of every request as
	// "Authorization: Bearer TOKEN" (compared in constant time). Serve
	// refuses a listener other than a unix socket without one; on the
	// store's socket, whose file mode guards it, it is usually "".
	Token string
}

// Serve answers the HTTP API on ln until ln is closed; then it waits for
// the requests in flight to finish and returns nil. Requests run
// concurrently, as the DB allows; a client that disconnects cancels its
// request.
func (db *DB) Serve(ln net.Listener, opts *ServeOptions) error {
	if ln.Addr().Network() != "unix" && (opts == nil || opts.Token == "") {
		return fmt.Errorf("medkb: refusing to serve %s %s without a token", ln.Addr().Network(), ln.Addr())
	}
	srv := &http.Server{Handler: db.Handler(opts), ReadHeaderTimeout: 10 * time.Second}
	err := srv.Serve(ln)
	if serr := srv.Shutdown(context.Background()); err == nil || errors.Is(err, net.ErrClosed) {
		err = serr
	}
	return err
}

// route is one endpoint of the API.
type route struct {
	pattern string // "METHOD /v1/path", a net/http pattern
	handle  func(db *DB, w http.ResponseWriter, r *http.Request) error
}

// routes is the API; APIRoutes lists it, so its documentation cannot
// miss one.
var routes = []route{
	{"GET /v1/health", (*DB).serveHealth},
	{"POST /v1/query", (*DB).serveQuery},
	{"POST /v1/ingest", (*DB).serveIngest},
	{"POST /v1/delete", (*DB).serveDelete},
	{"GET /v1/stats", (*DB).serveStats},
	{"GET /v1/docs/{id}", (*DB).serveShow},
	{"GET /v1/export", (*DB).serveExport},
	{"POST /v1/check", (*DB).serveCheck},
	{"POST /v1/rebuild", (*DB).serveRebuild},
	{"POST /v1/backup", (*DB).serveBackup},
}

// APIRoutes returns "METHOD /v1/path" for every route of the API.
func APIRoutes() []string {
	out := make([]string, len(routes))
	for i, rt := range routes {
		out[i] = rt.pattern
	}
	return out
}

// Handler returns the API as an http.Handler, for a program that serves
// it from its own server or mux. With opts.Token set, every request must
// carry it.
func (db *DB) Handler(opts *ServeOptions) http.Handler {
	mux := http.NewServeMux()
	for _, rt := range routes {
		mux.Handle(rt.pattern, db.endpoint(rt.handle))
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, notFoundRoute(r))
	})
	if opts == nil || opts.Token == "" {
		return mux
	}
	want := []byte("Bearer " + opts.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", "Bearer")
			writeError(w, errUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// endpoint caps the body of a request to h and writes h's error.
func (db *DB) endpoint(h func(*DB, http.ResponseWriter, *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, MaxRequestBytes)
		if err := h(db, w, r); err != nil {
			writeError(w, err)
		}
	})
}

// notFoundRoute is the error for a request no route matches; it lists
// the routes.
func notFoundRoute(r *http.Request) error {
	return fmt.Errorf("%w: no route %s %s; the routes are %s", errNoRoute, r.Method, r.URL.Path, strings.Join(APIRoutes(), ", "))
}

// moduleVersion is medkb's module version as the build recorded it,
// "(devel)" for a build from a work tree.
func moduleVersion() string {
	const path = "github.com/medkb/medkb"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path == path && bi.Main.Version != "" {
			return bi.Main.Version
		}
		for _, m := range bi.Deps {
			if m.Path == path {
				return m.Version
			}
		}
	}
	return "(devel)"
}
