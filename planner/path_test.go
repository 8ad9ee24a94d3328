package planner

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// TestPathDirection: a step walked against its edge is a value (Reverse);
// the source line and the JSON spell it "<-", and the relation itself
// stays bare.
func TestPathDirection(t *testing.T) {
	p := &Path{Nodes: []string{"aspirin", "myocardial infarction", "chest pain"}, Types: []string{"Drug", "Disease", "Symptom"},
		Relations: []string{"treats", "has_symptom"}, Reverse: []bool{false, true}}
	got := newSource(&Item{Rank: 2, ID: "path:1", Provenance: Provenance{Path: p}}, nil).String()
	want := "[2] knowledge graph: aspirin (Drug) -treats-> myocardial infarction (Disease) <-has_symptom- chest pain (Symptom)"
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

// TestSourceData: a source is the document's fields as data, and its
// String the line the command prints (the published date when there is
// no time; only the chunk for a document gone).
func TestSourceData(t *testing.T) {
	it := &Item{Rank: 1, ID: "p1-lab#0", Doc: "p1-lab"}
	d := &base.Doc{ID: "p1-lab", Title: "Troponin", Type: "lab", Source: "EMR", Patient: "P1", Published: "2024"}
	s := newSource(it, d)
	if got, want := s.String(), `[1] p1-lab#0, "Troponin", lab, EMR, patient P1, 2024`; got != want {
		t.Errorf("line:\n got %s\nwant %s", got, want)
	}
	js, err := json.Marshal(s)
	want := `{"rank":1,"id":"p1-lab#0","doc":"p1-lab","title":"Troponin","type":"lab","source":"EMR","patient":"P1","published":"2024"}`
	if err != nil || string(js) != want {
		t.Errorf("JSON:\n got %s\nwant %s", js, want)
	}
	if got := newSource(it, nil).String(); got != "[1] p1-lab#0" {
		t.Errorf("a document gone: %s", got)
	}
}
