package planner

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/planner/pack"
)

// TestDropDetailText: the drop details, formatted with strconv, read as
// the fmt verbs that define them (%d, %.2f, %.3f, %.3g, %.4g), for every
// shape: each signal alone and together, none, both states, no text.
func TestDropDetailText(t *testing.T) {
	floats := []float64{0, 0.15, 0.42684197591223505, 0.00012345, 1, -0.25, 123456.789, math.Inf(1), math.NaN()}
	for _, f := range floats {
		for _, shape := range []struct{ bm25, vector, boost bool }{{}, {bm25: true}, {vector: true}, {boost: true}, {true, true, false}, {true, true, true}, {false, true, true}} {
			c := &candidate{coverage: f, evidence: f}
			var want []string
			if shape.bm25 {
				c.BM25 = &ArmScore{Rank: 3}
				want = append(want, fmt.Sprintf("bm25 #%d, coverage %.2f", 3, f))
			}
			if shape.vector {
				c.Vector = &ArmScore{Rank: 12, Score: f}
				want = append(want, fmt.Sprintf("vector #%d, cosine %.3f", 12, f))
			}
			if shape.boost {
				c.boost = 0.5
				want = append(want, "graph boost")
			}
			w := strings.Join(want, "; ")
			if w == "" {
				w = "no signal"
			}
			w = fmt.Sprintf("evidence %.3g < %.3g (%s)", f, minEvidence, w)
			if got := c.notRelevant(); got != w {
				t.Errorf("notRelevant() = %q, want %q", got, w)
			}
		}
		for _, st := range []pack.StateID{pack.StateA, pack.StateB} {
			for _, b := range []*pack.State{nil, {Tokens: 0}, {Tokens: 40}} {
				d := pack.Drop{Tier: base.T2, State: st, Tokens: 112, Density: f}
				c := &pack.Candidate{A: pack.State{Tokens: 112}, B: b}
				want := fmt.Sprintf("%s, state %s, %d tokens, density %.4g", d.Tier, d.State, d.Tokens, d.Density)
				if b != nil && b.Tokens != 0 {
					if st == pack.StateA {
						want += fmt.Sprintf("; state B %d tokens", b.Tokens)
					} else {
						want += fmt.Sprintf("; state A %d tokens", c.A.Tokens)
					}
				}
				if got := dropDetail(d, c); got != want {
					t.Errorf("dropDetail = %q, want %q", got, want)
				}
			}
		}
	}
	if got := dropDetail(pack.Drop{Tier: base.T4}, &pack.Candidate{}); got != "T4, no text" {
		t.Errorf("dropDetail of an empty block = %q", got)
	}
}
