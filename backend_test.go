package medkb

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestBackendChoice: without a cluster, the backend options are checked,
// an embedded store refuses to become a Weaviate one, a new Weaviate store
// whose cluster is unreachable fails naming the node, and DropBackend
// does nothing for the embedded backend.
func TestBackendChoice(t *testing.T) {
	ctx := context.Background()
	if err := (&Options{Backend: "elastic"}).Validate(); err == nil || !strings.Contains(err.Error(), `Options.Backend is "elastic"`) {
		t.Errorf("unknown backend: %v", err)
	}
	db := openSample(t)
	if err := db.DropBackend(ctx); err != nil {
		t.Errorf("DropBackend on the embedded backend: %v", err)
	}
	if len(items(t, db, `RETRIEVE "chest pain" LIMIT 3`)) == 0 {
		t.Error("no items after DropBackend on the embedded backend")
	}
	dir := filepath.Join(t.TempDir(), "kb")
	edb, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := edb.Ingest(ctx, []Doc{{ID: "d1", Text: "Chest pain since this morning."}}); err != nil {
		t.Fatal(err)
	}
	if err := edb.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = Open(dir, &Options{Backend: BackendWeaviate, Weaviate: WeaviateOptions{Nodes: "http://127.0.0.1:1"}})
	if !errors.Is(err, ErrBackendMismatch) {
		t.Errorf("an embedded store opened for Weaviate: %v, want ErrBackendMismatch", err)
	}
	_, err = Open(filepath.Join(t.TempDir(), "kb"), &Options{Backend: BackendWeaviate, Weaviate: WeaviateOptions{Nodes: "http://127.0.0.1:1"}})
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("a new Weaviate store on a dead node: %v, want an error naming the node", err)
	}
}

// items runs q on db and returns the ids of its items.
func items(t *testing.T, db *DB, q string) []string {
	t.Helper()
	r, err := db.Query(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var out []string
	for _, it := range r.Items {
		out = append(out, it.ID)
	}
	return out
}
