package medkb

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/medkb/medkb/dsl"
)

// TestParamsCannotInject runs values built to break out of a string
// literal against the sample store: bound as parameters they stay one
// value. A question full of quotes, comments and keywords still finds
// only P001's documents, and a patient id that tries to end its literal
// and comment out the rest matches no patient, so nothing comes back.
func TestParamsCannotInject(t *testing.T) {
	db := openSample(t)
	patientOf := map[string]string{}
	for _, d := range sampleDocs(t) {
		patientOf[d.ID] = d.Patient
	}
	const src = `RETRIEVE $q WHERE patient = $p PACK budget 256`
	evil := []string{`cancer" --`, `"`, `)`, `P002" WHERE patient = "P002`, "chest pain\nWHERE tier = T1", `WHERE`, `$p`, `P001" --`}
	ctx := context.Background()
	for _, v := range evil {
		res, err := db.QueryParams(ctx, src, Params{"q": v + " chest pain", "p": "P001"})
		if err != nil {
			t.Fatalf("q=%q: %v", v, err)
		}
		if len(res.Items) == 0 {
			t.Fatalf("q=%q: no items for P001", v)
		}
		for _, it := range res.Items {
			if patientOf[it.Doc] != "P001" {
				t.Fatalf("q=%q: item %s is patient %q's", v, it.Doc, patientOf[it.Doc])
			}
		}
		res, err = db.QueryParams(ctx, src, Params{"q": "chest pain", "p": v})
		if err != nil {
			t.Fatalf("p=%q: %v", v, err)
		}
		if len(res.Items) != 0 {
			t.Fatalf("p=%q matched %d items (first %s); it names no patient", v, len(res.Items), res.Items[0].Doc)
		}
	}
}

// TestParamsErrors: the errors of binding reach the caller as
// positioned *dsl.Error values.
func TestParamsErrors(t *testing.T) {
	db := openSample(t)
	ctx := context.Background()
	for _, c := range []struct {
		src    string
		params Params
		want   string
	}{
		{`RETRIEVE $q`, nil, "1:10: parameter $q has no value"},
		{`RETRIEVE "x"`, Params{"p": "A"}, "1:1: parameter $p is given a value but the statement does not use it"},
		{`RETRIEVE $q PACK budget $b`, Params{"q": "x", "b": "many"}, `1:25: parameter $b stands for a number here; got the string "many"`},
		{`RETRIEVE $q`, Params{"q": true}, "1:10: parameter $q is a bool; a parameter takes a string or a number"},
	} {
		_, err := db.QueryParams(ctx, c.src, c.params)
		var e *dsl.Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s %v: got %v, want %s", c.src, c.params, err, c.want)
		}
	}
	plan, err := db.ExplainParams(ctx, `RETRIEVE $q WHERE patient = $p PACK budget $b`, Params{"q": "chest pain", "p": "P001", "b": 128})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, `params: $q = "chest pain", $p = "P001", $b = 128`) {
		t.Errorf("the plan does not list the parameters:\n%s", plan)
	}
}
