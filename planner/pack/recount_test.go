package pack

import (
	"slices"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// TestRecount: cutting an item that met its tier's quota unmeets it, and
// a block the quota does not count (too little relevance) never meets one.
func TestRecount(t *testing.T) {
	cands := []Candidate{
		{ID: "t1", Tier: base.T1, Day: base.NoDay, Relevance: 1, A: State{Text: "a", Tokens: 2, Sim: 0.5}},
		{ID: "t2", Tier: base.T2, Day: base.NoDay, Relevance: 1, A: State{Text: "b", Tokens: 2, Sim: 0.5}},
		{ID: "t2-faint", Tier: base.T2, Day: base.NoDay, Relevance: 0.1, A: State{Text: "c", Tokens: 2, Sim: 0.5}},
	}
	p := DefaultParams()
	p.Budget = 100
	r, err := Pack(cands, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Items) != 3 || !r.QuotaMet {
		t.Fatalf("packed %d items, quota met %t", len(r.Items), r.QuotaMet)
	}
	same, met := Recount(r.Quota, r.Items)
	if !met || !slices.Equal(same, r.Quota) {
		t.Errorf("recount over every item: %+v %t, want %+v", same, met, r.Quota)
	}
	kept := slices.DeleteFunc(slices.Clone(r.Items), func(it Item) bool { return it.ID == "t2" })
	q, met := Recount(r.Quota, kept)
	if met || q[1].Tier != base.T2 || q[1].Got != 0 || q[1].Met || q[0].Got != 1 || !q[0].Met {
		t.Errorf("without t2 (t2-faint kept, outside the quota): %+v met %t", q, met)
	}
	if r.Quota[1].Got != 1 {
		t.Errorf("Recount changed its input: %+v", r.Quota)
	}
}
