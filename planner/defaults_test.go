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
	p, err := planner.Build(q, planner.Binding{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Pack == nil {
		t.Fatalf("%s: plan has no Pack node", src)
	}
	return p.Pack.Params
}

// TestStoreKmin: across the store the default kmin is 0 (RuleStoreKmin);
// a written kmin stands.
func TestStoreKmin(t *testing.T) {
	if got := packParams(t, `RETRIEVE "x" PACK budget 512`).Kmin; got != 0 {
		t.Errorf("PACK across the store: default kmin %d, want 0", got)
	}
	if got := packParams(t, `RETRIEVE "x" PACK budget 512 kmin 2`).Kmin; got != 2 {
		t.Errorf("PACK across the store, kmin 2: kmin %d", got)
	}
	if got := packParams(t, `RETRIEVE "x" WHERE patient = "P1" PACK budget 512`).Kmin; got != pack.DefaultKmin {
		t.Errorf("PACK in one record: default kmin %d, want %d", got, pack.DefaultKmin)
	}
}

// TestPackFloorReachesPacker: a written floor is the packer's SimFloor.
func TestPackFloorReachesPacker(t *testing.T) {
	if got := packParams(t, `RETRIEVE "x" PACK budget 512 floor 0.05`).SimFloor; got != 0.05 {
		t.Errorf("PACK floor 0.05 gave SimFloor %v", got)
	}
}

// TestBuildFinishesThePlan: Build's plan carries the arm weight it was
// bound with (0 meaning 1); nothing patches it afterwards.
func TestBuildFinishesThePlan(t *testing.T) {
	q, err := dsl.Check(mustParse(t, `RETRIEVE "x"`))
	if err != nil {
		t.Fatal(err)
	}
	for give, want := range map[float64]float64{0: 1, 0.5: 0.5} {
		p, err := planner.Build(q, planner.Binding{VectorWeight: give})
		if err != nil {
			t.Fatal(err)
		}
		if p.Fuse.VectorWeight != want {
			t.Errorf("bound with vector weight %v: plan has %v, want %v", give, p.Fuse.VectorWeight, want)
		}
	}
}

func mustParse(t *testing.T, src string) *dsl.Statement {
	t.Helper()
	s, err := dsl.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
