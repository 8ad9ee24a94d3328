package bm25

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// filterCorpus is an index of filterDocs.
func filterCorpus(t *testing.T) *Index {
	t.Helper()
	ix := openTemp(t)
	apply(t, ix, 1, nil, filterDocs(t)...)
	return ix
}

// filterDocs: every chunk mentions "fever"; attributes vary, and chunk 6
// has none at all.
func filterDocs(t *testing.T) []Doc {
	t.Helper()
	day := func(s string) base.Day {
		d, err := base.ParseDay(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	return []Doc{
		Doc{Ord: 1, Doc: "d1", Text: "fever 39C", Tier: base.T1, Type: "lab", Patient: "P001", Source: "EMR", Lang: "en",
			Time: day("2018-01-01"), Meta: map[string]string{"dept": "icu"}},
		Doc{Ord: 2, Doc: "d1", Text: "fever resolved", Tier: base.T2, Type: "imaging", Patient: "P001", Source: "EMR", Lang: "en",
			Time: day("2019-06-15"), Meta: map[string]string{"dept": "cardiology", "ward": "3"}},
		Doc{Ord: 3, Doc: "d2", Text: "fever of unknown origin", Tier: base.T3, Type: "note", Patient: "P002", Source: "EMR", Lang: "en",
			Time: day("2020-03-02")},
		Doc{Ord: 4, Doc: "d3", Text: "patient reports fever", Tier: base.T4, Type: "complaint", Patient: "P002", Source: "app", Lang: "en",
			Time: day("2021-12-31")},
		Doc{Ord: 5, Doc: "d4", Text: "fever in sepsis trials", Tier: base.T1, Type: "paper", Source: "pubmed", Evidence: "rct", Lang: "en",
			Time: day("2015-07-01")},
		Doc{Ord: 6, Text: "fever without any attributes", Time: base.NoDay},
		Doc{Ord: 7, Doc: "d5", Text: "发热 fever", Tier: base.T3, Type: "note", Patient: "P003", Lang: "zh", Evidence: "cohort",
			Time: day("2018-01-02")},
	}
}

// cond binds a condition as the query language does.
func cond(field string, op base.Op, values ...string) base.Cond {
	c, err := base.BindCond(field, op, values...)
	if err != nil {
		panic(err)
	}
	return c
}

// filterCase is a filter and the chunks of filterDocs it keeps.
type filterCase struct {
	name   string
	filter base.Filter
	want   []uint64
}

func TestFilters(t *testing.T) {
	ix := filterCorpus(t)
	for _, tc := range filterCases() {
		got := sorted(find(t, ix, "fever", 100, tc.filter))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestFiltersAgreeWithBase: the index keeps exactly the chunks for which
// base.Cond's semantics (the Holds methods, which the vector scan calls)
// say every condition holds.
func TestFiltersAgreeWithBase(t *testing.T) {
	ix := filterCorpus(t)
	docs := filterDocs(t)
	for _, tc := range filterCases() {
		var want []uint64
		for _, d := range docs {
			if holds(tc.filter, &d) {
				want = append(want, d.Ord)
			}
		}
		if got := sorted(find(t, ix, "fever", 100, tc.filter)); !slices.Equal(got, want) {
			t.Errorf("%s: the index keeps %v, base.Cond holds for %v", tc.name, got, want)
		}
	}
}

// holds evaluates f on d by base.Cond's semantics.
func holds(f base.Filter, d *Doc) bool {
	text := map[string]string{base.FieldType: d.Type, base.FieldPatient: d.Patient, base.FieldSource: d.Source,
		base.FieldEvidence: d.Evidence, base.FieldLang: d.Lang, base.FieldDoc: d.Doc}
	for _, c := range f {
		var ok bool
		switch {
		case c.Field == base.FieldTier:
			ok = c.HoldsTier(d.Tier)
		case c.Field == base.FieldTime:
			ok = c.HoldsDay(d.Time)
		case strings.HasPrefix(c.Field, base.MetaPrefix):
			v, has := d.Meta[strings.TrimPrefix(c.Field, base.MetaPrefix)]
			ok = c.HoldsText(v, has)
		default:
			ok = c.HoldsText(text[c.Field], text[c.Field] != "")
		}
		if !ok {
			return false
		}
	}
	return true
}

func filterCases() []filterCase {
	return []filterCase{
		{"none", nil, []uint64{1, 2, 3, 4, 5, 6, 7}},
		{"tier =", base.Filter{cond("tier", "=", "T1")}, []uint64{1, 5}},
		{"tier = lower case", base.Filter{cond("tier", "=", "t3")}, []uint64{3, 7}},
		{"tier IN", base.Filter{cond("tier", "IN", "T1", "T2")}, []uint64{1, 2, 5}},
		{"tier !=", base.Filter{cond("tier", "!=", "T1")}, []uint64{2, 3, 4, 6, 7}},
		{"type =", base.Filter{cond("type", "=", "lab")}, []uint64{1}},
		{"type IN", base.Filter{cond("type", "IN", "note", "paper")}, []uint64{3, 5, 7}},
		{"type is case-sensitive", base.Filter{cond("type", "=", "Lab")}, nil},
		{"patient =", base.Filter{cond("patient", "=", "P001")}, []uint64{1, 2}},
		{"patient !=", base.Filter{cond("patient", "!=", "P001")}, []uint64{3, 4, 5, 6, 7}},
		{"source =", base.Filter{cond("source", "=", "EMR")}, []uint64{1, 2, 3}},
		{"evidence IN", base.Filter{cond("evidence", "IN", "rct", "cohort")}, []uint64{5, 7}},
		{"lang =", base.Filter{cond("lang", "=", "zh")}, []uint64{7}},
		{"doc =", base.Filter{cond("doc", "=", "d1")}, []uint64{1, 2}},
		{"doc IN", base.Filter{cond("doc", "IN", "d2", "d3", "nope")}, []uint64{3, 4}},
		{"meta =", base.Filter{cond("meta.dept", "=", "icu")}, []uint64{1}},
		{"meta other key", base.Filter{cond("meta.ward", "=", "3")}, []uint64{2}},
		{"meta !=", base.Filter{cond("meta.dept", "!=", "icu")}, []uint64{2, 3, 4, 5, 6, 7}},
		{"meta value under other key", base.Filter{cond("meta.ward", "=", "icu")}, nil},
		{"time =", base.Filter{cond("time", "=", "2018-01-01")}, []uint64{1}},
		{"time !=", base.Filter{cond("time", "!=", "2018-01-01")}, []uint64{2, 3, 4, 5, 6, 7}},
		{"time <", base.Filter{cond("time", "<", "2018-01-02")}, []uint64{1, 5}},
		{"time <=", base.Filter{cond("time", "<=", "2018-01-02")}, []uint64{1, 5, 7}},
		{"time >", base.Filter{cond("time", ">", "2020-03-02")}, []uint64{4}},
		{"time >=", base.Filter{cond("time", ">=", "2020-03-02")}, []uint64{3, 4}},
		{"time IN", base.Filter{cond("time", "IN", "2015-07-01", "2021-12-31")}, []uint64{4, 5}},
		{"time range", base.Filter{cond("time", ">=", "2018-01-01"), cond("time", "<", "2020-01-01")}, []uint64{1, 2, 7}},
		{"time in other layouts", base.Filter{cond("time", ">=", "2019-06"), cond("time", "<", "2021")}, []uint64{2, 3}},
		{"and", base.Filter{cond("tier", "IN", "T1", "T2", "T3"), cond("lang", "=", "en"), cond("time", ">=", "2016-01-01")}, []uint64{1, 2, 3}},
		{"and with !=", base.Filter{cond("source", "=", "EMR"), cond("type", "!=", "lab"), cond("tier", "!=", "T3")}, []uint64{2}},
		{"two !=", base.Filter{cond("patient", "!=", "P001"), cond("patient", "!=", "P002")}, []uint64{5, 6, 7}},
		{"contradiction", base.Filter{cond("tier", "=", "T1"), cond("tier", "=", "T2")}, nil},
		{"unknown value", base.Filter{cond("patient", "=", "P999")}, nil},
	}
}

// TestFilterDoesNotScore checks that a filter only removes chunks: the
// survivors keep the scores they have without it.
func TestFilterDoesNotScore(t *testing.T) {
	ix := filterCorpus(t)
	ctx := context.Background()
	all, err := ix.Search(ctx, "fever sepsis", 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	some, err := ix.Search(ctx, "fever sepsis", 100, base.Filter{cond("tier", "IN", "T1", "T3"), cond("time", ">", "2000-01-01")})
	if err != nil {
		t.Fatal(err)
	}
	want := slices.DeleteFunc(all, func(h Hit) bool { return !slices.Contains([]uint64{1, 3, 5, 7}, h.Ord) })
	same := func(a, b Hit) bool { // scores, and the terms held, agree across both paths
		return a.Ord == b.Ord && a.Score == b.Score && slices.Equal(a.Terms, b.Terms) && a.Holds == b.Holds
	}
	if !slices.EqualFunc(some, want, same) {
		t.Errorf("filtered hits %v, want %v", some, want)
	}
}

// TestFilterErrors: a condition BindCond would refuse, or did not bind,
// is refused.
func TestFilterErrors(t *testing.T) {
	ix := filterCorpus(t)
	cond := func(field string, op base.Op, values ...string) base.Cond {
		return base.Cond{Field: field, Op: op, Values: values}
	}
	for _, tc := range []struct {
		name string
		c    base.Cond
	}{
		{"unknown field", cond("colour", "=", "red")},
		{"empty meta key", cond("meta.", "=", "x")},
		{"ordering on tier", cond("tier", ">", "T2")},
		{"ordering on meta", cond("meta.dept", "<=", "icu")},
		{"unknown operator", cond("tier", "LIKE", "T%")},
		{"bad tier", cond("tier", "=", "T9")},
		{"bad tier in IN", cond("tier", "IN", "T1", "gold")},
		{"bad date", cond("time", ">=", "yesterday")},
		{"empty date", cond("time", "=", "")},
		{"IN without values", cond("type", "IN")},
		{"= with two values", cond("type", "=", "lab", "note")},
		{"= without value", cond("time", "=")},
		{"tier not bound", cond("tier", "=", "T1")},
		{"time not bound", cond("time", "=", "2020-01-01")},
	} {
		_, err := ix.Search(context.Background(), "fever", 10, base.Filter{tc.c})
		if !errors.Is(err, base.ErrBadCond) {
			t.Errorf("%s: error %v, want base.ErrBadCond", tc.name, err)
		}
	}
}
