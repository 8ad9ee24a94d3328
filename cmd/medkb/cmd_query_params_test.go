package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestQueryParams: --param binds a statement's $names; a value that would
// close the string and comment out the filter is only a patient id that
// matches nobody; a missing or malformed --param is an error.
func TestQueryParams(t *testing.T) {
	db := sampleStore(t)
	stmt := `RETRIEVE $q WHERE patient = $p PACK budget 256`
	docs := func(args ...string) []string {
		t.Helper()
		code, out, errOut := cli(t, "", append(append([]string{"query", "--json"}, args...), append([]string{stmt}, db...)...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var r struct {
			Items []struct{ Doc string } `json:"items"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, it := range r.Items {
			ids = append(ids, it.Doc)
		}
		return ids
	}
	got := docs("--param", "q=chest pain", "--param", "p=P001")
	if len(got) == 0 {
		t.Fatal("no item for patient P001")
	}
	for _, id := range got {
		if !strings.HasPrefix(id, "P001-") {
			t.Errorf("patient P001's query returned %s", id)
		}
	}
	if got := docs("--param", "q=chest pain", "--param", `p=P001" --`); len(got) != 0 {
		t.Errorf(`p=P001" -- returned %v, want nothing`, got)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--param", "q=chest pain"}, "parameter $p has no value"},
		{[]string{"--param", "q"}, `--param "q": want NAME=VALUE`},
	} {
		code, _, errOut := cli(t, "", append(append([]string{"query"}, c.args...), append([]string{stmt}, db...)...)...)
		if code != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d: %s", c.args, code, errOut)
		}
	}
}
