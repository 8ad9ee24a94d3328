package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
)

// kb is what the commands do with a store, whoever holds it: a
// *medkb.DB this process opened, or a *medkb.Client of the server
// (`medkb serve`, or an application calling DB.Serve) that holds it. Both
// have these methods with the same signatures.
type kb interface {
	QueryParams(ctx context.Context, src string, p medkb.Params) (*medkb.Result, error)
	Ingest(ctx context.Context, docs []medkb.Doc) (*medkb.IngestResult, error)
	IngestGraph(ctx context.Context, ents []medkb.Entity, triples []medkb.Triple) (medkb.GraphChange, error)
	Delete(ctx context.Context, ids []string) (*medkb.DeleteResult, error)
	Stats() (*medkb.Stats, error)
	Show(ids []string) ([]medkb.DocView, error)
	Export(fn func(*medkb.Doc) error) error
	Close() error
}

var (
	_ kb = (*medkb.DB)(nil)
	_ kb = (*medkb.Client)(nil)
)

// serverHelp ends the help of every command that goes through a server.
const serverHelp = `

When a server holds the store (medkb serve, or an application serving it
with DB.Serve), the command goes through it instead of opening the store's
files, with the same output and exit status, so that neither locks the
other out. --no-server opens the files anyway.`

// routedStoreFlags gives c the store flags and --no-server, and ends its
// help with serverHelp and through, what else differs through a server
// ("" when nothing): c goes through the server holding the store when
// there is one.
func (e *env) routedStoreFlags(c *cobra.Command, through string) *cobra.Command {
	c.Long += serverHelp
	if through != "" {
		c.Long += "\n\n" + through
	}
	c.Flags().BoolVar(&e.noServer, "no-server", false, "open the store directly even when a server holds it")
	return e.storeFlags(c)
}

// server connects to the server holding the store named by --db; nil
// when there is none (or --no-server), so that the caller opens the
// store itself.
func (e *env) server() (*medkb.Client, error) {
	if e.noServer {
		return nil, nil
	}
	c, err := medkb.Connect(e.db)
	if errors.Is(err, medkb.ErrNoServer) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the server of %s: %w (--no-server opens the store directly)", e.db, err)
	}
	return c, nil
}

// withServer returns remote's answer through the server holding the
// store named by --db when there is one, else direct's: for check,
// rebuild and backup, whose direct forms open the store their own way.
func withServer[T any](e *env, remote func(*medkb.Client) (T, error), direct func() (T, error)) (T, error) {
	c, err := e.server()
	switch {
	case err != nil:
		var zero T
		return zero, err
	case c == nil:
		return direct()
	}
	defer c.Close()
	return remote(c)
}

// connect reaches the store named by --db through its server when one
// holds it, else opens it as open does.
func (e *env) connect(readOnly bool) (kb, error) {
	return e.connectOr(func() (*medkb.DB, error) { return e.open(readOnly) })
}

// connectOr reaches the store named by --db through its server when one
// holds it, else opens it with open.
func (e *env) connectOr(open func() (*medkb.DB, error)) (kb, error) {
	c, err := e.server()
	switch {
	case err != nil:
		return nil, err
	case c != nil:
		return c, nil
	}
	db, err := open()
	if err != nil {
		return nil, err
	}
	return db, nil
}
