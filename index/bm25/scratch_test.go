package bm25

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestScratchSegments(t *testing.T) {
	b := &testing.B{}
	_ = b
	dir := os.Getenv("XDIR")
	if dir == "" {
		t.Skip()
	}
	zaps, _ := filepath.Glob(filepath.Join(dir, "store", "*.zap"))
	t.Logf("%d zap files", len(zaps))
	ix, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := ix.Compact(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Logf("compact %v", time.Since(start))
	ix.Close()
	zaps, _ = filepath.Glob(filepath.Join(dir, "store", "*.zap"))
	t.Logf("%d zap files", len(zaps))
}
