package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
)

func serveCmd(e *env) *cobra.Command {
	var listen, tokenFile string
	c := &cobra.Command{
		Use:   "serve [--listen ADDR] [--token-file F]",
		Short: "own the store and answer many clients over a socket (HTTP/JSON API v1)",
		Long: `Serve opens the store read-write and answers the HTTP/JSON API v1 (see
docs/serve.md) on the unix socket medkb.sock inside the store directory,
so that one process owns the store while any number of clients query,
ingest, delete, check, back up and rebuild through it. Queries run
concurrently; writes wait for each other as they do in one process. A
missing DIR is created empty, as ingest creates it, to be filled
through the server.

The socket is mode 0600 and needs no token. --listen ADDR also serves
TCP on ADDR, where every request must carry "Authorization: Bearer
TOKEN": the token is read from --token-file F (its first line) or
$MEDKB_TOKEN, and serve refuses --listen without one. A socket left by a
server that died is removed; a live server's is refused.

SIGINT or SIGTERM stops accepting, lets the requests in flight finish,
removes the socket and closes the store; a second signal exits at once.

Examples:
  medkb serve --db kb &
  curl --unix-socket kb/medkb.sock http://medkb/v1/health
  MEDKB_TOKEN=$(openssl rand -hex 16) medkb serve --db kb --listen 127.0.0.1:7070`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			token, err := serveToken(tokenFile)
			if err != nil {
				return err
			}
			if listen != "" && token == "" {
				return errors.New("--listen needs a token: --token-file F or $MEDKB_TOKEN")
			}
			// A live server holds the writer's lock: say so now rather
			// than after --lock-timeout.
			if c, err := medkb.Connect(e.db); err == nil {
				c.Close()
				return fmt.Errorf("%w on %s", medkb.ErrServerRunning, medkb.SocketPath(e.db))
			}
			// Catch the signals before the socket exists, so that a client
			// that finds it can rely on a clean stop.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			db, err := e.open(false)
			if err != nil {
				return err
			}
			defer db.Close()
			lns, opts, err := serveListeners(db, listen, token)
			if err != nil {
				return err
			}
			addrs := make([]string, len(lns))
			served := make(chan error, len(lns))
			for i, ln := range lns {
				addrs[i] = ln.Addr().String()
				if ln.Addr().Network() == "tcp" {
					addrs[i] = "http://" + addrs[i]
				}
				go func() { served <- db.Serve(ln, opts[i]) }()
			}
			fmt.Fprintf(e.stderr, "medkb: serving %s on %s\n", e.db, strings.Join(addrs, " and "))
			var first error
			pending := len(lns)
			select {
			case <-ctx.Done():
			case first = <-served: // a listener failed: stop the others too
				pending--
			}
			stop()
			for _, ln := range lns {
				ln.Close()
			}
			errs := []error{first}
			for ; pending > 0; pending-- {
				errs = append(errs, <-served)
			}
			return errors.Join(errs...)
		},
	}
	c.Flags().StringVar(&listen, "listen", "", "also serve TCP on ADDR (host:port), with a token")
	c.Flags().StringVar(&tokenFile, "token-file", "", "read the TCP token from this file's first line (default $MEDKB_TOKEN)")
	return e.storeFlags(c)
}

// serveToken is the token of --token-file, else $MEDKB_TOKEN.
func serveToken(file string) (string, error) {
	if file == "" {
		return os.Getenv("MEDKB_TOKEN"), nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(b), "\n")
	if line = strings.TrimSpace(line); line == "" {
		return "", fmt.Errorf("--token-file %s: the first line is empty", file)
	}
	return line, nil
}

// serveListeners binds the store's socket and, with listen, a TCP
// address, returning the ServeOptions of each.
func serveListeners(db *medkb.DB, listen, token string) ([]net.Listener, []*medkb.ServeOptions, error) {
	ln, err := db.ListenUnix()
	if err != nil {
		return nil, nil, err
	}
	if listen == "" {
		return []net.Listener{ln}, []*medkb.ServeOptions{nil}, nil
	}
	tl, err := net.Listen("tcp", listen)
	if err != nil {
		ln.Close()
		return nil, nil, err
	}
	return []net.Listener{ln, tl}, []*medkb.ServeOptions{nil, {Token: token}}, nil
}
