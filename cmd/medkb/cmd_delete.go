package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
)

func deleteCmd(e *env) *cobra.Command {
	return e.routedStoreFlags(&cobra.Command{
		Use:   "delete ID...",
		Short: "remove documents by id from the store and every index (exit 1 if an id is not stored)",
		Long: `Delete removes the documents named by id, with their chunks, from the store,
the BM25 index and the vector slab, in one transaction. It prints what it
removed. An id the store does not hold is reported on stderr and the exit
status is then 1, after the known ids were deleted: a script learns that
its list was stale, and what was removed stays removed.

The store must exist: delete never creates one.

Example:
  medkb delete --db kb P001-lab-06 P001-note-02`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, ids []string) error {
			known, unknown, err := e.splitKnown(ids)
			if err != nil {
				return err
			}
			if len(known) > 0 {
				db, err := e.connect(false)
				if err != nil {
					return err
				}
				defer db.Close()
				r, err := db.Delete(cmd.Context(), known)
				if err != nil {
					return fmt.Errorf("nothing deleted: %w", err)
				}
				fmt.Fprintf(e.stdout, "deleted %d document(s) (%d chunk(s)): %s\n", r.Docs, r.Chunks, strings.Join(known, " "))
				if r.IndexErr != nil {
					fmt.Fprintf(e.stderr, "medkb: the deletion is committed, but queries fail until the index catches up: %v\n", r.IndexErr)
				}
			}
			if len(unknown) > 0 {
				return fmt.Errorf("no such document: %s", strings.Join(unknown, " "))
			}
			return nil
		},
	}, "")
}

// splitKnown sorts ids into those the store holds and those it does not,
// reading the store without locking writers out; it refuses a --db that
// holds no store, as the read commands do.
func (e *env) splitKnown(ids []string) (known, unknown []string, err error) {
	db, err := e.connect(true)
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		_, err := db.Show([]string{id})
		switch {
		case errors.Is(err, medkb.ErrNotFound):
			unknown = append(unknown, id)
		case err != nil:
			return nil, nil, err
		default:
			known = append(known, id)
		}
	}
	return known, unknown, nil
}
