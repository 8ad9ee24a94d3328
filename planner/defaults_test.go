package planner_test

import (
	"testing"

	"github.com/medkb/medkb/dsl"
	"github.com/medkb/medkb/planner"
	"github.com/medkb/medkb/planner/pack"
)

// packParams builds the plan of src, which needs no graph, and returns the
// packer's parameters.
func packParams(t *testing.T, src string) pack.Params {
	t.Helper()
	s, err := dsl.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	q, err := dsl.Check(s)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.Build(q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Pack == nil {
		t.Fatalf("%s: plan has no Pack node", src)
	}
	return p.Pack.Params
}

// TestPackDefaultsMatchPack: the query language's PACK defaults (dsl
// cannot import planner/pack) are the packer's documented defaults, in
// one patient's record; across the store the default kmin is 0.
func TestPackDefaultsMatchPack(t *testing.T) {
	if got := packParams(t, `RETRIEVE "x" PACK budget 512`).Kmin; got != 0 {
		t.Errorf("PACK across the store: default kmin %d, want 0", got)
	}
	if got := packParams(t, `RETRIEVE "x" PACK budget 512 kmin 2`).Kmin; got != 2 {
		t.Errorf("PACK across the store, kmin 2: kmin %d", got)
	}
	got := packParams(t, `RETRIEVE "x" WHERE patient = "P1" PACK budget 512`)
	want := pack.DefaultParams()
	if got.Kmin != want.Kmin || got.Weights != want.Weights || got.Lambda != want.Lambda ||
		got.Epsilon != want.Epsilon || got.SimFloor != want.SimFloor || got.Strategy != want.Strategy {
		t.Errorf("PACK defaults kmin=%d weights=%v lambda=%v epsilon=%v floor=%v strategy=%v,\n"+
			"pack.DefaultParams kmin=%d weights=%v lambda=%v epsilon=%v floor=%v strategy=%v",
			got.Kmin, got.Weights, got.Lambda, got.Epsilon, got.SimFloor, got.Strategy,
			want.Kmin, want.Weights, want.Lambda, want.Epsilon, want.SimFloor, want.Strategy)
	}
}

// TestPackFloorReachesPacker: a written floor is the packer's SimFloor.
func TestPackFloorReachesPacker(t *testing.T) {
	if got := packParams(t, `RETRIEVE "x" PACK budget 512 floor 0.05`).SimFloor; got != 0.05 {
		t.Errorf("PACK floor 0.05 gave SimFloor %v", got)
	}
}
