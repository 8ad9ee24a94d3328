package medkb

import "context"

// TEMPORARY stand-ins for the OPS helper's DB.Rebuild and DB.Verify, so
// that the serve branch compiles on its own; deleted at the merge.

// Rebuild is the package-level Rebuild of db's directory.
func (db *DB) Rebuild(ctx context.Context, opts *RebuildOptions) (*RebuildResult, error) {
	return Rebuild(ctx, db.Dir(), opts)
}

// Verify is db.Check as a CheckReport.
func (db *DB) Verify(ctx context.Context) (*CheckReport, error) {
	problems, err := db.Check()
	if err != nil {
		return nil, err
	}
	r := &CheckReport{Problems: problems}
	if len(problems) == 0 {
		r.Stats, err = db.Stats()
	}
	return r, err
}
