package planner

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/medkb/medkb/index/bm25"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/docio"
)

// TestWhereArmsAgreeOnSample runs the same filters through both arms'
// filters, the BM25 index's bleve clauses and the vector scan's slot test
// with its meta post-filter, and checks that they keep the same documents
// of the sample corpus, one chunk a document. The corpus gives the values;
// documents without a tier get one of T1..T4 or none, by position, so that
// every tier and its absence occur.
func TestWhereArmsAgreeOnSample(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "testdata", "corpus", "docs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := docio.ReadJSONL(f, "docs.jsonl")
	if err != nil || res.Err() != nil {
		t.Fatal(err, res.Err())
	}
	docs := res.Docs
	ix, err := bm25.Open(filepath.Join(t.TempDir(), "bm25"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()

	ids := map[string]uint32{}
	id := func(v string) uint32 {
		if v == "" {
			return 0
		}
		if _, ok := ids[v]; !ok {
			ids[v] = uint32(len(ids) + 1)
		}
		return ids[v]
	}
	dict := func(v string) (uint32, bool, error) { n, ok := ids[v]; return n, ok, nil }
	adds := make([]bm25.Doc, len(docs))
	slots := make([]base.Slot, len(docs))
	for i := range docs {
		d := &docs[i]
		if d.Tier == base.TierNone {
			d.Tier = base.Tier(i % 5)
		}
		day, err := base.ParseDay(d.Time)
		if err != nil {
			day = base.NoDay
		}
		ord := uint64(i + 1)
		adds[i] = bm25.Doc{Ord: ord, Doc: d.ID, Text: "everyone " + d.Text, Tier: d.Tier, Type: d.Type, Patient: d.Patient,
			Source: d.Source, Evidence: d.Evidence, Lang: d.Lang, Time: day, Meta: d.Meta}
		slots[i] = base.Slot{Ord: ord, DocNum: id(d.ID), Tier: d.Tier, Alive: true, Time: day, Patient: id(d.Patient),
			Type: id(d.Type), Source: id(d.Source), Evidence: id(d.Evidence), Lang: id(d.Lang)}
	}
	if err := ix.Apply(1, nil, adds); err != nil {
		t.Fatal(err)
	}

	filters := sampleFilters(t, docs, adds)
	partial := 0 // filters that keep some documents but not all
	for _, flt := range filters {
		hits, err := ix.Search(context.Background(), "everyone", len(docs), flt)
		if err != nil {
			t.Fatalf("%s: %v", describe(flt), err)
		}
		var byBM25 []uint64
		for _, h := range hits {
			byBM25 = append(byBM25, h.Ord)
		}
		slices.Sort(byBM25)
		scan, residual := splitForSlots(flt)
		match, err := compileSlotFilter(scan, dict)
		if err != nil {
			t.Fatalf("%s: %v", describe(flt), err)
		}
		var byScan []uint64
		for i := range slots {
			if (match == nil || match(&slots[i])) && metaMatches(docs[i].Meta, residual) {
				byScan = append(byScan, slots[i].Ord)
			}
		}
		if !slices.Equal(byBM25, byScan) {
			t.Errorf("%s: BM25 keeps %v, the vector scan %v", describe(flt), byBM25, byScan)
		}
		if len(byScan) > 0 && len(byScan) < len(docs) {
			partial++
		}
	}
	if len(filters) < 50 || partial < len(filters)/2 {
		t.Errorf("%d filters, %d of them keep some documents but not all: too few to compare the arms", len(filters), partial)
	}
	t.Logf("%d filters over %d documents, %d keep some but not all", len(filters), len(docs), partial)
}

// sampleFilters builds single conditions from the corpus's own values
// (and one no document has), and some conjunctions of them.
func sampleFilters(t *testing.T, docs []base.Doc, adds []bm25.Doc) []base.Filter {
	bind := func(field string, op base.Op, v ...string) base.Cond {
		c, err := base.BindCond(field, op, v...)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	values := map[string]map[string]bool{}
	see := func(field, v string) {
		if values[field] == nil {
			values[field] = map[string]bool{}
		}
		values[field][v] = true
	}
	for i, d := range docs {
		for field, v := range map[string]string{base.FieldType: d.Type, base.FieldPatient: d.Patient, base.FieldSource: d.Source,
			base.FieldEvidence: d.Evidence, base.FieldLang: d.Lang, base.FieldDoc: d.ID} {
			if v != "" {
				see(field, v)
			}
		}
		for k, v := range d.Meta {
			see(base.MetaPrefix+k, v)
		}
		if adds[i].Time != base.NoDay {
			see(base.FieldTime, adds[i].Time.String())
		}
	}
	var single []base.Cond
	fields := make([]string, 0, len(values))
	for field := range values {
		fields = append(fields, field)
	}
	sort.Strings(fields)
	for _, field := range fields {
		vs := make([]string, 0, len(values[field]))
		for v := range values[field] {
			vs = append(vs, v)
		}
		sort.Strings(vs)
		if field != base.FieldTime {
			vs = append(vs, "no such value")
		}
		for i, v := range vs {
			ops := []base.Op{base.OpEq, base.OpNe}
			if field == base.FieldTime {
				ops = append(ops, base.OpLt, base.OpLe, base.OpGt, base.OpGe)
			}
			for _, op := range ops {
				single = append(single, bind(field, op, v))
			}
			if i > 0 {
				single = append(single, bind(field, base.OpIn, vs[i-1], v))
			}
		}
	}
	for _, tier := range []string{"T1", "T2", "T3", "T4"} {
		single = append(single, bind(base.FieldTier, base.OpEq, tier), bind(base.FieldTier, base.OpNe, tier))
	}
	single = append(single, bind(base.FieldTier, base.OpIn, "T1", "T2"))
	var out []base.Filter
	for _, c := range single {
		out = append(out, base.Filter{c})
	}
	for i := 0; i+7 < len(single); i += 7 {
		out = append(out, base.Filter{single[i], single[i+3], single[i+7]})
	}
	return out
}
