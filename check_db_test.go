package medkb

import (
	"context"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/damage"
)

// DB.Verify checks through an open DB what Check checks: a segment
// garbled where opening does not look is a problem for a read-only DB
// and repaired by a read-write one, which goes on serving.
func TestDBVerify(t *testing.T) {
	dir := copyStore(t, oneSegmentDir(t))
	_, zaps := indexFiles(t, dir)
	damage.Garble(t, zaps[0], 5000, 1<<30)
	ctx := context.Background()

	ro := readsWork(t, dir, len(sampleDocs(t)))
	r, err := ro.Verify(ctx)
	if err != nil || len(r.Problems) == 0 || !indexOnly(r.Problems) || len(r.Fixed) != 0 || r.Stats != nil {
		t.Fatalf("read-only verify: %+v, %v; want an index problem, unrepaired", r, err)
	}
	ro.Close()

	db, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, err = db.Verify(ctx)
	if err != nil || len(r.Problems) != 0 || len(r.Fixed) == 0 || len(r.Repaired) != 1 || !strings.Contains(r.Repaired[0], "rebuilt") || r.Stats == nil {
		t.Fatalf("read-write verify: %+v, %v; want the index repaired", r, err)
	}
	if res, err := db.Query(ctx, damageQuery); err != nil || len(res.Items) == 0 {
		t.Fatalf("query after the repair: %v", err)
	}
	r, err = db.Verify(ctx)
	if err != nil || len(r.Problems)+len(r.Fixed)+len(r.Repaired) != 0 || r.Stats.Docs != len(sampleDocs(t)) {
		t.Fatalf("verify after the repair: %+v, %v", r, err)
	}
}
