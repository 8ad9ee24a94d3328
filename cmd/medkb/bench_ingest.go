package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/internal/synth"
)

func benchIngestCmd(e *env) *cobra.Command {
	var n, batch int
	var keep, source, cpuProfile string
	var asJSON bool
	c := &cobra.Command{
		Use:   "ingest [--n N] [--batch B] [--keep DIR] [--json]",
		Short: "end-to-end ingest throughput on N synthetic documents of about 80 words",
		Long: `Generates N deterministic synthetic clinical documents (about 80 words each,
all four tiers; with --source, resampled from real documents so that term
frequencies are realistic) and ingests them into a new store with the
built-in embedder as medkb ingest does: in batches of B documents, one
transaction each, the next batch prepared while the one before commits.
Reports documents per second end to end, then the time to reopen the store
cold. With --keep DIR the store is kept there for bench query; otherwise
it goes in a temporary directory that is removed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if n < 1 || batch < 1 {
				return fmt.Errorf("--n and --batch must be at least 1")
			}
			dir := keep
			if dir == "" {
				tmp, err := os.MkdirTemp("", "medkb-bench-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(tmp)
				dir = filepath.Join(tmp, "kb")
			} else if empty, err := isEmptyOrMissing(dir); err != nil || !empty {
				return fmt.Errorf("--keep %s must be a new or empty directory", dir)
			}
			docs := synth.Docs(n, 1)
			if source != "" {
				res, err := readDocs(source)
				if err != nil {
					return err
				}
				texts := make([]string, len(res.Docs))
				for i, d := range res.Docs {
					texts[i] = d.Text
				}
				docs = synth.Resample(texts, n, 1)
			}
			in := publicDocs(docs)
			stop, err := startCPUProfile(cpuProfile)
			if err != nil {
				return err
			}
			defer stop()
			start := time.Now()
			db, err := medkb.Open(dir, nil)
			if err != nil {
				return err
			}
			w := &batchWriter{ctx: cmd.Context(), db: db}
			restoreGC := bulkGC()
			for lo := 0; lo < n && err == nil; lo += batch {
				var b *preparedBatch
				b, err = w.prepare(in[lo:min(lo+batch, n)], nil)
				if _, werr := w.wait(); err == nil {
					err = werr
				}
				if err == nil {
					w.commit(b)
				}
			}
			if _, werr := w.wait(); err == nil {
				err = werr
			}
			restoreGC()
			if err != nil {
				db.Close()
				return err
			}
			if err := db.Close(); err != nil {
				return err
			}
			took := time.Since(start)
			runtime.GC() // open as a new process would, without the ingest's garbage
			start = time.Now()
			db, err = medkb.Open(dir, &medkb.Options{ReadOnly: true})
			if err != nil {
				return err
			}
			open := time.Since(start)
			db.Close()
			out := map[string]float64{"docs": float64(n), "seconds": took.Seconds(),
				"docs_per_s": float64(n) / took.Seconds(), "open_ms": float64(open.Microseconds()) / 1000}
			if asJSON {
				return e.writeJSON(out)
			}
			fmt.Fprintf(e.stdout, "ingested %d documents in %.1fs: %.0f docs/s; cold open (read-only) %.1f ms\n",
				n, took.Seconds(), out["docs_per_s"], out["open_ms"])
			return nil
		},
	}
	c.Flags().IntVar(&n, "n", 100000, "documents")
	c.Flags().IntVar(&batch, "batch", 5000, "documents per batch (one transaction each)")
	c.Flags().StringVar(&keep, "keep", "", "keep the store in this new directory")
	c.Flags().StringVar(&source, "source", "", "resample the words of these documents (e.g. NFCorpus test.docs) instead of the built-in clinical vocabulary")
	c.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the ingest and the cold open to this file (go tool pprof)")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

func isEmptyOrMissing(dir string) (bool, error) {
	ents, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return true, nil
	}
	return len(ents) == 0, err
}
