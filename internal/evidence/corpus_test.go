package evidence

import (
	"reflect"
	"testing"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/bench/packbench"
)

func TestCaseDocs(t *testing.T) {
	cases := []packbench.Case{{ID: "zh-1", Query: "肾功能怎么样？", Segments: []packbench.Segment{
		{ID: "zh-1/lab", Text: "血肌酐 132μmol/L", Type: "生化", Tier: base.T2, Time: "2025-03-18", Signal: true, Keys: []string{"132μmol/L"}},
		{ID: "zh-1/cc", Text: "反复心悸1个月。"},
	}}}
	docs := CaseDocs(cases)
	want := []base.Doc{
		{ID: "zh-1/lab", Text: "血肌酐 132μmol/L", Type: "生化", Time: "2025-03-18", Patient: "zh-1"},
		{ID: "zh-1/cc", Text: "反复心悸1个月。", Patient: "zh-1"},
	}
	if !reflect.DeepEqual(docs, want) {
		t.Fatalf("CaseDocs gave %+v, want %+v (no gold tier)", docs, want)
	}
	docs[1].Tier = base.T4
	Untyped(docs)
	for _, d := range docs {
		if d.Type != "" || d.Tier != base.TierNone {
			t.Errorf("Untyped left %s with type %q, tier %v", d.ID, d.Type, d.Tier)
		}
	}
}
