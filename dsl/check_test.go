package dsl

import (
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// TestCheck pins the bound, defaulted form of valid statements.
func TestCheck(t *testing.T) {
	runGolden(t, "check", "check", func(t *testing.T, input string) string {
		s, err := Parse(input)
		if err != nil {
			t.Errorf("does not parse:\n%s\n%v", input, err)
			return "error: " + err.Error()
		}
		q, err := Check(s)
		if err != nil {
			t.Errorf("does not check:\n%s\n%v", input, err)
			return "error: " + err.Error()
		}
		return q.String()
	})
}

func mustCheck(t *testing.T, src string) *Query {
	t.Helper()
	s, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	q, err := Check(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestDefaults(t *testing.T) {
	q := mustCheck(t, `RETRIEVE "x" USING bm25 FUSE docvote EXPAND metapath "A -r-> B" HOPS 3 PACK budget 512 kmin 1`)
	want := map[Param]bool{
		ParamBM25K: true, ParamFuseM: true, ParamFuseDocs: true, ParamFuseVotes: true, ParamExpandLimit: true, ParamMinEntities: true,
		ParamWeights: true, ParamLambda: true, ParamEpsilon: true, ParamFloor: true, ParamReliability: true, ParamStrategy: true, ParamNow: true, ParamLimit: true,
	}
	if len(q.Defaulted) != len(want) {
		t.Errorf("defaulted %v, want %v", q.Defaulted, want)
	}
	for p := range want {
		if !q.Defaulted[p] {
			t.Errorf("%s not marked defaulted", p)
		}
	}
	if q.Vector != nil || q.BM25.K != 50 || q.Fuse.M != 5 || q.Expand.Hops != 3 || q.Expand.Limit != 20 ||
		q.Pack.Weights != [4]float64{2.5, 2.5, 1, 1} || q.Pack.Lambda != 0.02 || q.Pack.Floor != 0.5 || q.Limit != 0 {
		t.Errorf("unexpected query %+v", q)
	}
}

func TestFilterBinding(t *testing.T) {
	q := mustCheck(t, `RETRIEVE "x" WHERE tier IN (t2, "T1") AND time > "2024-02" AND meta.科室 = 心内科`)
	want := base.Filter{
		{Field: "tier", Op: base.OpIn, Values: []string{"T2", "T1"}},
		{Field: "time", Op: base.OpGt, Values: []string{"2024-02-29"}},
		{Field: "meta.科室", Op: base.OpEq, Values: []string{"心内科"}},
	}
	if len(q.Filter) != len(want) || len(q.FilterPos) != len(want) {
		t.Fatalf("got %v", q.Filter)
	}
	for i := range want {
		if q.Filter[i].Field != want[i].Field || q.Filter[i].Op != want[i].Op || !equalStrings(q.Filter[i].Values, want[i].Values) {
			t.Errorf("cond %d: got %+v, want %+v", i, q.Filter[i], want[i])
		}
	}
	if got := q.Filter[0].Tiers; len(got) != 2 || got[0] != base.T2 || got[1] != base.T1 {
		t.Errorf("tiers bound to %v, want [T2 T1]", got)
	}
	if got := q.Filter[1].Days; len(got) != 1 || got[0].String() != "2024-02-29" {
		t.Errorf("time bound to %v, want the day 2024-02-29", got)
	}
	if q.FilterPos[2] != (Pos{1, 64, 63}) {
		t.Errorf("FilterPos[2] = %#v", q.FilterPos[2])
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestCheckHandBuilt covers what Parse cannot produce but a caller
// building a Statement can.
func TestCheckHandBuilt(t *testing.T) {
	text := &RetrieveClause{Text: Str{Value: "x"}}
	cases := map[string]*Statement{
		`a statement needs RETRIEVE "<query text>"`:    {},
		"USING names no arm; use bm25, vector or both": {Retrieve: text, Using: &UsingClause{}},
		`unknown field "dept"; the fields are tier, type, patient, time, source, evidence, lang, doc and meta.KEY`: {
			Retrieve: text, Where: &WhereClause{Conds: []Condition{{Field: Field{Name: "dept"}, Op: base.OpEq, Values: []Value{{Text: "x"}}}}},
		},
		"meta needs a key, as in meta.department": {
			Retrieve: text, Where: &WhereClause{Conds: []Condition{{Field: Field{Name: "meta."}, Op: base.OpEq, Values: []Value{{Text: "x"}}}}},
		},
		`unknown operator "~"`: {
			Retrieve: text, Where: &WhereClause{Conds: []Condition{{Field: Field{Name: "type"}, Op: "~", Values: []Value{{Text: "x"}}}}},
		},
		"= takes one value, got 2": {
			Retrieve: text, Where: &WhereClause{Conds: []Condition{{Field: Field{Name: "type"}, Op: base.OpEq, Values: []Value{{Text: "x"}, {Text: "y"}}}}},
		},
		`unknown fusion method "max"; use rrf, weighted or docvote`: {Retrieve: text, Fuse: &FuseClause{Method: "max"}},
		"EXPAND needs at least one metapath":                        {Retrieve: text, Expand: &ExpandClause{}},
		`unknown strategy "best"; use ebm, paper, exact, fifo, semantic, uniform`: {
			Retrieve: text, Pack: &PackClause{Budget: &Num{Text: "1"}, Strategy: &Name{Text: "best"}},
		},
		`lambda must be a number, got "1e3"`:                   {Retrieve: text, Pack: &PackClause{Budget: &Num{Text: "1"}, Lambda: &Num{Text: "1e3"}}},
		"now is empty; leave it out for the time of execution": {Retrieve: text, Pack: &PackClause{Budget: &Num{Text: "1"}, Now: &Str{}}},
	}
	for want, s := range cases {
		_, err := Check(s)
		e, ok := err.(*Error)
		if !ok || e.Msg != want {
			t.Errorf("got %v, want %s", err, want)
			continue
		}
		if e.Error() != "0:0: "+want {
			t.Errorf("without source text the error should be one line, got %q", e.Error())
		}
	}
}

func TestStringPos(t *testing.T) {
	src := "RETRIEVE \"x\"\nEXPAND metapath \"A -r-> B\", \"\\\"方名\\\" -组成->\n中药\""
	q := mustCheck(t, src)
	m := q.Expand.Metapaths[1]
	if m.Text != "\"方名\" -组成->\n中药" {
		t.Fatalf("metapath text %q", m.Text)
	}
	for _, c := range []struct {
		rune int
		want Pos
	}{
		{0, Pos{2, 30, 42}},  // \" is one rune written as two
		{1, Pos{2, 32, 44}},  // 方
		{4, Pos{2, 36, 52}},  // the space after the second \"
		{6, Pos{2, 38, 54}},  // 组
		{10, Pos{2, 42, 62}}, // the newline
		{11, Pos{3, 1, 63}},  // 中
		{13, Pos{3, 3, 69}},  // one past the end: the closing quote
	} {
		if got := q.StringPos(m.Pos, c.rune); got != c.want {
			t.Errorf("rune %d: got %#v, want %#v", c.rune, got, c.want)
		}
	}
	err := q.ErrorAt(q.StringPos(m.Pos, 6), "unknown relation %q", "组成")
	want := "2:38: unknown relation \"组成\"\n  EXPAND metapath \"A -r-> B\", \"\\\"方名\\\" -组成->\n  " + strings.Repeat(" ", 39) + "^" // 方名 are two cells each
	if err.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", err, want)
	}
}

func TestStringPosWithoutSource(t *testing.T) {
	var q Query
	if got := q.StringPos(Pos{Line: 2, Column: 5, Offset: 20}, 3); got != (Pos{Line: 2, Column: 9, Offset: 24}) {
		t.Errorf("got %#v", got)
	}
}
