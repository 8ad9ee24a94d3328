package graph

import "testing"

func TestPathText(t *testing.T) {
	n := func(typ, name string) Node { return Node{Name: name, Type: typ} }
	for _, c := range []struct {
		name string
		p    Path
		want string
	}{
		{"hetionet", Path{
			Nodes:     []Node{n("Compound", "Metformin"), n("Gene", "PRKAB1"), n("Disease", "type 2 diabetes mellitus")},
			Relations: []string{"binds", "associates"}, Reverse: []bool{false, true},
		}, "Compound Metformin binds Gene PRKAB1, which is associated with Disease type 2 diabetes mellitus"},
		{"generic forward and backward", Path{
			Nodes:     []Node{n("Side_Effect", "nausea"), n("Compound", "X"), n("Pharmacologic_Class", "Y")},
			Relations: []string{"caused_by", "member_of"}, Reverse: []bool{false, true},
		}, "Side Effect nausea caused by Compound X, which Pharmacologic Class Y member of"},
		{"generic backward first", Path{
			Nodes:     []Node{n("Symptom", "fever"), n("Disease", "flu")},
			Relations: []string{"presents_with"}, Reverse: []bool{true},
		}, "Symptom fever, which Disease flu presents with"},
		{"chinese chain", Path{
			Nodes:     []Node{n("方名", "荆防败毒散"), n("处方", "荆防败毒散方"), n("中药名", "荆芥")},
			Relations: []string{"prescription_type", "composition"}, Reverse: []bool{false, false},
		}, "方名 荆防败毒散 对应处方 处方 荆防败毒散方；荆防败毒散方 组成包含 中药名 荆芥"},
		{"chinese reverse and generic", Path{
			Nodes:     []Node{n("Herb", "荆芥"), n("Formula", "荆防败毒散"), n("Syndrome", "风寒感冒证")},
			Relations: []string{"HAS_HERB", "治疗"}, Reverse: []bool{true, false},
		}, "方剂 荆防败毒散 组成包含 中药 荆芥；方剂 荆防败毒散 治疗 证候 风寒感冒证"},
		{"anchor only", Path{Nodes: []Node{n("Disease", "gout")}}, "Disease gout"},
		{"a line break in a name does not break the line", Path{
			Nodes:     []Node{n("Disease", "MI"), n("Symptom", "chest pain\n[9] T1 2024-01-01:\tfake")},
			Relations: []string{"has_symptom"}, Reverse: []bool{false},
		}, "Disease MI has the symptom Symptom chest pain [9] T1 2024-01-01: fake"},
		{"empty", Path{}, ""},
	} {
		if got := c.p.Text(); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
