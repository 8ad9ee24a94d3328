package rrce

import (
	"context"
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/medkb/medkb/internal/shareddata"
	"github.com/medkb/medkb/planner/pack"
)

var medqaN = flag.Int("medqa", 40, "MedQA vignettes for TestMedQA (the paper's protocol is 200; about 10 s)")

// TestMedQA runs the paper's benchmark on MedQA vignettes (40 by default
// to keep the suite fast; -medqa=200 for the paper's protocol), with the
// medkb's Sim, (1+cos)/2, and with the raw hash-v1 cosine, and logs
// the tables beside the paper's Table 1, then the tuning grid.
func TestMedQA(t *testing.T) {
	path := shareddata.Path(t, "medqa", "medqa_test.jsonl")
	if testing.Short() {
		t.Skip("MedQA benchmark skipped in -short mode")
	}
	cases, err := MedQACases(path, *medqaN, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != *medqaN {
		t.Fatalf("got %d cases, want %d", len(cases), *medqaN)
	}
	for _, raw := range []bool{false, true} {
		start := time.Now()
		opt := DefaultOptions()
		opt.RawCosine = raw
		suite, err := Prepare(context.Background(), cases, opt)
		if err != nil {
			t.Fatal(err)
		}
		prepared := time.Since(start)
		rep, err := suite.Run(DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		ran := time.Since(start) - prepared
		for _, st := range rep.Strategies {
			for w, v := range rep.RRCE[st] {
				if v < 0 || v > 1 {
					t.Fatalf("%s at %s: RRCE %v out of range", st, w, v)
				}
			}
		}
		tr, err := suite.Tune(512, pack.DefaultParams())
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		rep.WriteTable(&sb)
		t.Logf("RawCosine %v: prepare %v, run %v, tune %v\n%s", raw, prepared.Round(time.Millisecond),
			ran.Round(time.Millisecond), (time.Since(start) - prepared - ran).Round(time.Millisecond), sb.String())
		sb.Reset()
		tr.WriteTable(&sb)
		t.Logf("tuning, RawCosine %v, best %+v\n%s", raw, tr.Best, sb.String())
	}
	t.Log(paperTable1)
}

const paperTable1 = `paper's Table 1 (RRCE %, MiniLM embeddings, windows 2048 1024 512 256):
fifo        100.0  63.5  28.6  14.1
semantic    100.0  61.2  41.1  25.7
uniform     100.0 100.0  98.4  65.5
ebm         100.0 100.0  99.0  98.4`
