package rrce

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// dataDir is MEDKB_DATA, or ../shared/data relative to the repository root.
func dataDir() string {
	if d := os.Getenv("MEDKB_DATA"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "..", "shared", "data")
}

func medqaPath(t *testing.T) string {
	t.Helper()
	path := filepath.Join(dataDir(), "medqa", "medqa_test.jsonl")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("MedQA not found at %s (set MEDKB_DATA): %v", path, err)
	}
	return path
}

// TestMedQA runs the paper's benchmark on 200 MedQA vignettes and logs the
// table beside the paper's Table 1.
func TestMedQA(t *testing.T) {
	path := medqaPath(t)
	if testing.Short() {
		t.Skip("MedQA benchmark skipped in -short mode")
	}
	start := time.Now()
	cases, err := MedQACases(path, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 200 {
		t.Fatalf("got %d cases, want 200", len(cases))
	}
	suite, err := Prepare(context.Background(), cases, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	prepared := time.Since(start)
	rep, err := suite.Run(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	rep.WriteTable(&sb)
	t.Logf("prepare %v, run %v\n%s\n%s", prepared, time.Since(start)-prepared, sb.String(), paperTable1)
	for _, st := range rep.Strategies {
		for _, v := range rep.RRCE[st] {
			if v < 0 || v > 1 {
				t.Fatalf("%s: RRCE %v out of range", st, v)
			}
		}
	}
}

const paperTable1 = `paper's Table 1 (RRCE %, MiniLM embeddings, windows 2048 1024 512 256):
fifo        100.0  63.5  28.6  14.1
semantic    100.0  61.2  41.1  25.7
uniform     100.0 100.0  98.4  65.5
ebm         100.0 100.0  99.0  98.4`
