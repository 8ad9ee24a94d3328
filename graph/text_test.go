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
		}, "Metformin binds PRKAB1, which is associated with type 2 diabetes mellitus"},
		{"generic forward and backward", Path{
			Nodes:     []Node{n("Side_Effect", "nausea"), n("Compound", "X"), n("Pharmacologic_Class", "Y")},
			Relations: []string{"caused_by", "member_of"}, Reverse: []bool{false, true},
		}, "nausea caused by X, which Y member of"},
		{"generic backward first", Path{
			Nodes:     []Node{n("Symptom", "fever"), n("Disease", "flu")},
			Relations: []string{"presents_with"}, Reverse: []bool{true},
		}, "fever, which flu presents with"},
		{"chinese chain", Path{
			Nodes:     []Node{n("方名", "荆防败毒散"), n("处方", "荆防败毒散方"), n("中药名", "荆芥")},
			Relations: []string{"prescription_type", "composition"}, Reverse: []bool{false, false},
		}, "荆防败毒散对应处方荆防败毒散方；荆防败毒散方组成包含荆芥"},
		{"chinese reverse and generic", Path{
			Nodes:     []Node{n("Herb", "荆芥"), n("Formula", "荆防败毒散"), n("Syndrome", "风寒感冒证")},
			Relations: []string{"HAS_HERB", "治疗"}, Reverse: []bool{true, false},
		}, "荆防败毒散组成包含荆芥；荆防败毒散治疗风寒感冒证"},
		{"anchor only", Path{Nodes: []Node{n("Disease", "gout")}}, "gout"},
		{"a line break in a name does not break the line", Path{
			Nodes:     []Node{n("Disease", "MI"), n("Symptom", "chest pain\n[9] T1 2024-01-01:\tfake")},
			Relations: []string{"has_symptom"}, Reverse: []bool{false},
		}, "MI has the symptom chest pain [9] T1 2024-01-01: fake"},
		{"empty", Path{}, ""},
	} {
		if got := c.p.Text(); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestPathTextIn: the query's language decides the sentences, whatever
// the language of the names; no type name is written inline.
func TestPathTextIn(t *testing.T) {
	n := func(typ, name string) Node { return Node{Name: name, Type: typ} }
	mi := Path{Nodes: []Node{n("Disease", "myocardial infarction"), n("Symptom", "chest pain")}, Relations: []string{"has_symptom"}, Reverse: []bool{false}}
	gc := Path{Nodes: []Node{n("Disease", "胃癌"), n("Symptom", "黑便")}, Relations: []string{"has_symptom"}, Reverse: []bool{false}}
	herb := Path{Nodes: []Node{n("Herb", "黄连"), n("Formula", "黄连解毒汤")}, Relations: []string{"HAS_HERB"}, Reverse: []bool{true}}
	for _, c := range []struct {
		p       Path
		chinese bool
		want    string
	}{
		{mi, false, "myocardial infarction has the symptom chest pain"},
		{mi, true, "myocardial infarction的症状包括chest pain"},
		{gc, true, "胃癌的症状包括黑便"},
		{gc, false, "胃癌 has the symptom 黑便"},
		{herb, true, "黄连解毒汤组成包含黄连"},
		{herb, false, "黄连 is an ingredient of 黄连解毒汤"},
	} {
		if got := c.p.TextIn(c.chinese); got != c.want {
			t.Errorf("%v chinese=%v: got %q, want %q", c.p.Nodes, c.chinese, got, c.want)
		}
	}
}
