package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
)

func rebuildCmd(e *env) *cobra.Command {
	var opts medkb.RebuildOptions
	c := &cobra.Command{
		Use:   "rebuild [--reclassify] [--chunk-tokens N] [--grace D]",
		Short: "rebuild the store into a new generation and switch to it atomically (the nightly job)",
		Long: `Rebuild reads every document and triple from the live generation, re-chunks,
re-classifies, re-embeds and re-indexes them into a new generation, merges
the BM25 index into few segments, checks the result and then switches
CURRENT to it atomically.

Readers are never blocked: REPLs, query processes and Go API handles keep
answering from the old generation and move to the new one at their next
query. A writer (ingest) waits for the rebuild up to --lock-timeout and the
rebuild for a writer the same way. After the switch and a grace period,
generations no process has open are removed; one still open is removed
by a later rebuild. An interrupted rebuild leaves the live generation
untouched, and the next one removes its leftovers.

Every document is re-classified by the current rules, except those whose
tier was given explicitly at ingest (--reclassify re-classifies those
too). The summary counts the documents whose tier changed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			start := time.Now()
			opts.LockTimeout, opts.EmbedServer = e.lockTimeout, embedServer()
			var bar *progressbar.ProgressBar
			if isTerminal(e.stderr) {
				opts.Progress = func(done, total int) {
					if bar == nil {
						bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(e.stderr),
							progressbar.OptionSetDescription("rebuild"), progressbar.OptionShowCount(),
							progressbar.OptionClearOnFinish())
					}
					bar.Set(done)
				}
			}
			res, err := withServer(e,
				func(c *medkb.Client) (*medkb.RebuildResult, error) { return c.Rebuild(cmd.Context(), &opts) }, // its embedder; no progress
				func() (*medkb.RebuildResult, error) { return medkb.Rebuild(cmd.Context(), e.db, &opts) })
			if bar != nil {
				bar.Finish()
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "rebuilt %s -> %s: %d documents, %d chunks, %d entities, %d triples in %s\n",
				res.From, res.To, res.Docs, res.Chunks, res.Entities, res.Triples, time.Since(start).Round(time.Millisecond))
			if res.TierDiffers > 0 {
				fmt.Fprintf(e.stdout, "%d documents changed tier under the current rules\n", res.TierDiffers)
			}
			if len(res.Removed) > 0 {
				fmt.Fprintf(e.stdout, "removed %s\n", strings.Join(res.Removed, ", "))
			}
			if len(res.InUse) > 0 {
				fmt.Fprintf(e.stdout, "kept %s: still open by some process; a later rebuild removes it\n", strings.Join(res.InUse, ", "))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&opts.Reclassify, "reclassify", false, "also re-classify documents whose tier was given explicitly")
	c.Flags().IntVar(&opts.ChunkTokens, "chunk-tokens", medkb.DefaultChunkTokens, "maximum chunk length in tokens")
	c.Flags().DurationVar(&opts.Grace, "grace", medkb.DefaultRebuildGrace, "wait this long after the switch before removing the old generation")
	return e.routedStoreFlags(c, rebuildServerHelp)
}

// rebuildServerHelp is what differs when a server holds the store.
const rebuildServerHelp = `Through a server, the server rebuilds with the writer lock it holds and
its own embedder, answering queries from the old generation meanwhile;
no progress bar is shown.`
