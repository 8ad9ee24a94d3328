package tempstore

import (
	"context"
	"os"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// TestOpenIngestsAndCloseRemoves: the documents are queryable, and Close
// leaves no directory behind.
func TestOpenIngestsAndCloseRemoves(t *testing.T) {
	s, err := Open(context.Background(), "medkb-tempstore-test-", []base.Doc{{ID: "a", Text: "Troponin I 2.3 ng/mL."}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Query(context.Background(), `RETRIEVE "troponin" LIMIT 1`)
	if err != nil || len(r.Items) != 1 {
		t.Fatalf("query: %v, %+v", err, r)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.dir); !os.IsNotExist(err) {
		t.Errorf("%s still there: %v", s.dir, err)
	}
}
