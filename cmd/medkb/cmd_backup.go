package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
)

func backupCmd(e *env) *cobra.Command {
	return e.routedStoreFlags(&cobra.Command{
		Use:   "backup DEST",
		Short: "write a consistent copy of the store to DEST and check it",
		Long: `Backup copies the live generation's bbolt file (the system of record) from one
read transaction into DEST (a new or empty directory), builds the copy's
BM25 index from it and runs the consistency check on the copy. DEST is a
complete store: use it with --db DEST, or move it into place.

It reads the store like a query does: readers and rebuilds go on, while
an ingest in another process makes it wait up to --lock-timeout. A backup
that was interrupted has no CURRENT file and is refused as a store;
delete it and run backup again.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			start := time.Now()
			s, err := backup(cmd.Context(), e, args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "backed up %s to %s: %d documents, %d chunks, %d vectors, %d entities, %d triples; check ok in %s\n",
				e.db, args[0], s.Docs, s.Chunks, s.Vectors, s.Entities, s.Triples, time.Since(start).Round(time.Millisecond))
			return nil
		},
	}, backupServerHelp)
}

// backup copies the store to dest through the server holding it, which
// resolves dest in its own working directory, so it is sent absolute;
// else from a read-only open of its own.
func backup(ctx context.Context, e *env, dest string) (*medkb.Stats, error) {
	return withServer(e, func(c *medkb.Client) (*medkb.Stats, error) {
		abs, err := filepath.Abs(dest)
		if err != nil {
			return nil, err
		}
		return c.Backup(ctx, abs)
	}, func() (*medkb.Stats, error) { return medkb.Backup(ctx, e.db, dest, e.options(false)) })
}

// backupServerHelp is what differs when a server holds the store.
const backupServerHelp = `Through a server, the server writes the copy, to DEST made absolute here.`
