package planner

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestPathDirection: a step walked against its edge is a value (Reverse);
// the source line and the JSON spell it "<-", and the relation itself
// stays bare.
func TestPathDirection(t *testing.T) {
	p := &Path{Nodes: []string{"aspirin", "myocardial infarction", "chest pain"}, Types: []string{"Drug", "Disease", "Symptom"},
		Relations: []string{"treats", "has_symptom"}, Reverse: []bool{false, true}}
	got := source(&Item{Provenance: Provenance{Path: p}}, nil)
	want := "knowledge graph: aspirin (Drug) -treats-> myocardial infarction (Disease) <-has_symptom- chest pain (Symptom)"
	if got != want {
		t.Errorf("source line:\n got %s\nwant %s", got, want)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		t.Fatal(err)
	}
	js := b.String()
	if !strings.Contains(js, `"relations":["treats","<-has_symptom"]`) || strings.Contains(js, "reverse") {
		t.Errorf("JSON %s", js)
	}
	if p.Relations[1] != "has_symptom" {
		t.Errorf("marshalling changed the relation to %q", p.Relations[1])
	}
}
