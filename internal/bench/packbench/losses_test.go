package packbench

import (
	"context"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/golden"
	"github.com/medkb/medkb/planner/pack"
)

// TestLossesMatchRRCE lists what EBM-Pack loses on the 30 Chinese records
// at every window and checks the list against the report: the segments
// lost and those RRCE counts as kept make up every T1/T2 signal segment.
// The listing at 512 tokens is pinned.
func TestLossesMatchRRCE(t *testing.T) {
	cases, _, err := ReadCasesFile(filepath.Join("..", "..", "..", "testdata", "bench", "cases_zh.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Prepare(context.Background(), cases, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	rep, err := s.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range DefaultWindows {
		p := cfg.Params
		p.Budget, p.Strategy = w, pack.Ebm
		losses, err := s.Losses(p)
		if err != nil {
			t.Fatal(err)
		}
		kept := math.Round(rep.RRCE["ebm"][strconv.Itoa(w)] * float64(rep.Signals))
		if int(kept)+len(losses.Segments) != rep.Signals || losses.Window != w || losses.Strategy != "ebm" {
			t.Errorf("window %d: %v kept and %d lost of %d T1/T2 signal segments (%s at %d)",
				w, kept, len(losses.Segments), rep.Signals, losses.Strategy, losses.Window)
		}
		if w != 512 {
			continue
		}
		var out strings.Builder
		if err := losses.WriteTable(&out); err != nil {
			t.Fatal(err)
		}
		golden.File(t, filepath.Join("testdata", "losses_zh_512.golden"), out.String())
	}
}
