package medkb

// TEMPORARY: stands in for client.go (branch serve) until it is merged, so
// that cmd/medkb compiles against the contract. Deleted by that merge.

import (
	"context"
	"errors"
)

var ErrNoServer = errors.New("medkb: no server is running for this store")

type Client struct{}

func Connect(dir string) (*Client, error) { return nil, ErrNoServer }

func (c *Client) Close() error { return nil }
func (c *Client) QueryParams(ctx context.Context, src string, p Params) (*Result, error) {
	return nil, ErrNoServer
}
func (c *Client) Ingest(ctx context.Context, docs []Doc) (*IngestResult, error) {
	return nil, ErrNoServer
}
func (c *Client) IngestGraph(ctx context.Context, ents []Entity, triples []Triple) (GraphChange, error) {
	return GraphChange{}, ErrNoServer
}
func (c *Client) Delete(ctx context.Context, ids []string) (*DeleteResult, error) {
	return nil, ErrNoServer
}
func (c *Client) Stats() (*Stats, error)                           { return nil, ErrNoServer }
func (c *Client) Show(ids []string) ([]DocView, error)             { return nil, ErrNoServer }
func (c *Client) Export(fn func(*Doc) error) error                 { return ErrNoServer }
func (c *Client) Verify(ctx context.Context) (*CheckReport, error) { return nil, ErrNoServer }
func (c *Client) Rebuild(ctx context.Context, opts *RebuildOptions) (*RebuildResult, error) {
	return nil, ErrNoServer
}
func (c *Client) Backup(ctx context.Context, dest string) (*Stats, error) { return nil, ErrNoServer }

type RemoteError struct {
	Status       int
	Code         string
	Message      string
	Line, Column int
	Index        int
	ID           string
}

func (e *RemoteError) Error() string { return e.Message }
