package packbench

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/medkb/medkb/planner/pack"
)

// TestDuplicatesTarget is issue 20's target on the 30 Chinese records:
// with 1 to 3 copies of signal segments injected into each case and
// Dedup on, EBM's RRCE at every window is at least what it is without
// the copies (and without Dedup). The copies alone cost RRCE, which is
// what Dedup is for.
func TestDuplicatesTarget(t *testing.T) {
	cases, _, err := ReadCasesFile(filepath.Join("..", "..", "..", "testdata", "bench", "cases_zh.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	rrce := func(dups, dedup bool) map[string]float64 {
		opt := DefaultOptions()
		opt.Duplicates, opt.Dedup = dups, dedup
		s, err := Prepare(context.Background(), cases, opt)
		if err != nil {
			t.Fatal(err)
		}
		cfg := DefaultConfig()
		cfg.Strategies = []pack.Strategy{pack.Ebm}
		r, err := s.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return r.RRCE["ebm"]
	}
	base, copies, deduped := rrce(false, false), rrce(true, false), rrce(true, true)
	lost := false
	for _, w := range DefaultWindows {
		k := strconv.Itoa(w)
		if deduped[k] < base[k] {
			t.Errorf("window %s: RRCE %.3f with copies and Dedup, %.3f without copies", k, deduped[k], base[k])
		}
		lost = lost || copies[k] < base[k]
		t.Logf("window %s: RRCE %.3f, with copies %.3f, with copies and Dedup %.3f", k, base[k], copies[k], deduped[k])
	}
	if !lost {
		t.Error("the copies cost no RRCE at any window: the test no longer shows what Dedup is for")
	}
}

// TestAddDuplicates: each case gains 1 to 3 copies of its signal
// segments, none of them signal, and survival counts a copy for its
// original.
func TestAddDuplicates(t *testing.T) {
	cases := tinyCases(t)
	for i, c := range AddDuplicates(cases, 1) {
		n, signals := len(c.Segments)-len(cases[i].Segments), 0
		for _, s := range c.Segments {
			if s.copyOf != "" && s.Signal {
				t.Errorf("%s: copy %s is signal", c.ID, s.ID)
			}
			if s.Signal {
				signals++
			}
		}
		if signals > 0 && (n < 1 || n > 3) {
			t.Errorf("%s: %d copies, want 1 to 3", c.ID, n)
		}
	}
	opt := DefaultOptions()
	opt.NoiseRatio, opt.Duplicates = 0, true
	for _, c := range tinySuite(t, opt).cases {
		copies := 0
		for _, sg := range c.signal {
			copies += len(sg.copies)
		}
		if copies == 0 {
			t.Errorf("%s: no signal segment knows its copies", c.id)
		}
	}
}
