package weaviate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	wv "github.com/weaviate/weaviate-go-client/v5/weaviate"
	wvgrpc "github.com/weaviate/weaviate-go-client/v5/weaviate/grpc"
)

// DefaultGRPCPort is a node's gRPC port when its address names none.
const DefaultGRPCPort = 50051

// ErrUnavailable is returned when no node of the cluster answered a call;
// the error names each node's URL and what it said.
var ErrUnavailable = errors.New("weaviate: no node answered")

// ErrBadAddress is returned by ParseNodes for an address it cannot read.
var ErrBadAddress = errors.New("weaviate: bad node address")

// Node is one cluster node: its REST URL and its gRPC address.
type Node struct {
	URL  string // scheme://host:port of the REST API
	GRPC string // host:port of the gRPC API
}

// ParseNodes reads comma-separated node addresses, each a REST URL with
// an optional gRPC port: "http://127.0.0.1:8080?grpc=50051" (the gRPC
// port defaults to DefaultGRPCPort, the scheme to http).
func ParseNodes(s string) ([]Node, error) {
	var nodes []Node
	for _, a := range strings.Split(s, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		if !strings.Contains(a, "://") {
			a = "http://" + a
		}
		u, err := url.Parse(a)
		if err != nil || u.Host == "" || u.Port() == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, fmt.Errorf("%w: %q: want http://HOST:PORT[?grpc=PORT]", ErrBadAddress, a)
		}
		port := DefaultGRPCPort
		if g := u.Query().Get("grpc"); g != "" {
			if port, err = strconv.Atoi(g); err != nil || port <= 0 || port > 65535 {
				return nil, fmt.Errorf("%w: %q: grpc=%q is not a port", ErrBadAddress, a, g)
			}
		}
		nodes = append(nodes, Node{URL: u.Scheme + "://" + u.Host, GRPC: fmt.Sprintf("%s:%d", u.Hostname(), port)})
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("%w: %q names no node", ErrBadAddress, s)
	}
	return nodes, nil
}

// String is the address ParseNodes reads back.
func (n Node) String() string {
	_, port, _ := strings.Cut(n.GRPC, ":")
	return n.URL + "?grpc=" + port
}

// cluster holds one client per node and spreads calls over them.
type cluster struct {
	nodes   []Node
	clients []*wv.Client
	next    atomic.Uint32 // the node the next call tries first
}

// clients holds one client per node (and timeout) for the whole
// process. A client owns a gRPC connection it never closes, and the
// library asks a node's version when its client is made, so a client made
// at every Open (every store open, rebuild, DropBackend) would leak a
// connection and repeat that request each time.
var clients struct {
	sync.Mutex
	m map[clientKey]*wv.Client
}

type clientKey struct {
	node    Node
	timeout time.Duration
}

// dial gives the process's client for each node, making those it lacks.
func dial(nodes []Node, timeout time.Duration) (*cluster, error) {
	c := &cluster{nodes: nodes}
	clients.Lock()
	defer clients.Unlock()
	if clients.m == nil {
		clients.m = map[clientKey]*wv.Client{}
	}
	for _, n := range nodes {
		key := clientKey{n, timeout}
		cl := clients.m[key]
		if cl == nil {
			u, _ := url.Parse(n.URL)
			var err error
			cl, err = wv.NewClient(wv.Config{Scheme: u.Scheme, Host: u.Host, Timeout: timeout,
				GrpcConfig: &wvgrpc.Config{Host: n.GRPC, Secured: u.Scheme == "https"}})
			if err != nil {
				return nil, fmt.Errorf("weaviate: client for %s: %w", n.URL, err)
			}
			clients.m[key] = cl
		}
		c.clients = append(c.clients, cl)
	}
	return c, nil
}

// do calls fn with each node's client in turn, starting with the next in
// rotation, until one succeeds: a dead node costs a query one failed try,
// not an error. When every node fails, the error names each one.
func (c *cluster) do(ctx context.Context, what string, fn func(*wv.Client) error) error {
	start := int(c.next.Add(1)-1) % len(c.clients)
	var errs []error
	for i := range c.clients {
		n := (start + i) % len(c.clients)
		err := fn(c.clients[n])
		if err == nil {
			return nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", c.nodes[n].URL, err))
		if ctx.Err() != nil {
			break
		}
	}
	return fmt.Errorf("%w: %s: %w", ErrUnavailable, what, errors.Join(errs...))
}

// on calls fn with node n's client only, naming the node in its error.
func (c *cluster) on(n int, what string, fn func(*wv.Client) error) error {
	if err := fn(c.clients[n]); err != nil {
		return fmt.Errorf("weaviate: %s on %s: %w", what, c.nodes[n].URL, err)
	}
	return nil
}

// LocalNodes are the nodes cluster.sh starts (with no port offset).
const LocalNodes = "http://127.0.0.1:8180?grpc=50151,http://127.0.0.1:8181?grpc=50152,http://127.0.0.1:8182?grpc=50153"

// Ready reports, for each node, nil when it answers its readiness probe
// and else why not.
func Ready(ctx context.Context, nodes []Node) []error {
	errs := make([]error, len(nodes))
	for i, n := range nodes {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, n.URL+"/v1/.well-known/ready", nil)
		if err == nil {
			var resp *http.Response
			if resp, err = http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					err = fmt.Errorf("%s", resp.Status)
				}
			}
		}
		if err != nil {
			errs[i] = fmt.Errorf("weaviate: %s is not ready: %w", n.URL, err)
		}
	}
	return errs
}
