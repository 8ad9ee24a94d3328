package medkb

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/medkb/medkb/planner"
)

// TestResultMirrorsPlanner keeps the API's result types field for field
// the planner's, JSON names included: newResult copies Item, Provenance,
// Expansion and Result by hand, so a field the planner gains would
// otherwise be dropped from `medkb query --json` without an error.
func TestResultMirrorsPlanner(t *testing.T) {
	sameShape(t, reflect.TypeOf(Result{}), reflect.TypeOf(planner.Result{}))
}

func sameShape(t *testing.T, api, p reflect.Type) {
	t.Helper()
	if api.Kind() != p.Kind() {
		t.Fatalf("%v is a %v, %v a %v", api, api.Kind(), p, p.Kind())
	}
	switch api.Kind() {
	case reflect.Pointer, reflect.Slice:
		sameShape(t, api.Elem(), p.Elem())
		return
	case reflect.Struct:
	default:
		if api != p {
			t.Fatalf("%v and %v differ", api, p)
		}
		return
	}
	var want []reflect.StructField
	for i := 0; i < p.NumField(); i++ {
		if f := p.Field(i); f.IsExported() {
			want = append(want, f)
		}
	}
	if api.NumField() != len(want) {
		t.Fatalf("%v has %d fields, %v %d exported ones", api, api.NumField(), p, len(want))
	}
	for i, w := range want {
		f := api.Field(i)
		if f.Name != w.Name || f.Tag.Get("json") != w.Tag.Get("json") {
			t.Fatalf("%v field %d is %s %q, %v's is %s %q", api, i, f.Name, f.Tag.Get("json"), p, w.Name, w.Tag.Get("json"))
		}
		sameShape(t, f.Type, w.Type)
	}
}

// TestQueryJSONIsThePlanners checks the conversion on real results: the
// JSON of what Query returns is the planner's, byte for byte.
func TestQueryJSONIsThePlanners(t *testing.T) {
	db := openSample(t)
	ctx := context.Background()
	g, release, err := db.snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	bm, done, err := db.index(g)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	for _, q := range []string{
		`RETRIEVE "chest pain troponin" PACK budget 256`,
		`RETRIEVE "chest pain, troponin 2.3 ng/mL" WHERE patient = "P001" EXPAND metapath "Disease -has_symptom-> Symptom" PACK budget 256 kmin 1`,
		`EXPLAIN ANALYZE RETRIEVE "allergy" WHERE patient = "P001" PACK budget 64`,
		`EXPLAIN RETRIEVE "x"`,
	} {
		p, err := planner.Run(ctx, db.env(g, bm), q, nil)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		want, _ := json.Marshal(p)
		got, _ := json.Marshal(newResult(p))
		if string(got) != string(want) {
			t.Errorf("%s:\napi     %s\nplanner %s", q, got, want)
		}
		if a, b := newResult(p).QuotaSummary(), p.QuotaSummary(); a != b {
			t.Errorf("%s: QuotaSummary %q, planner %q", q, a, b)
		}
		if a, b := newResult(p).DropSummary(), p.DropSummary(); a != b {
			t.Errorf("%s: DropSummary %q, planner %q", q, a, b)
		}
	}
}
