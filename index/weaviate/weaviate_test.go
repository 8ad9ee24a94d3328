package weaviate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/medkb/medkb/index/bm25"
	"github.com/medkb/medkb/internal/base"
)

func TestParseNodes(t *testing.T) {
	nodes, err := ParseNodes("127.0.0.1:8080, http://127.0.0.1:8081?grpc=50052")
	if err != nil {
		t.Fatal(err)
	}
	want := []Node{{URL: "http://127.0.0.1:8080", GRPC: "127.0.0.1:50051"}, {URL: "http://127.0.0.1:8081", GRPC: "127.0.0.1:50052"}}
	if len(nodes) != 2 || nodes[0] != want[0] || nodes[1] != want[1] {
		t.Fatalf("ParseNodes = %+v, want %+v", nodes, want)
	}
	if back, _ := ParseNodes(nodes[1].String()); back[0] != nodes[1] {
		t.Errorf("%s reads back as %+v", nodes[1], back[0])
	}
	for _, bad := range []string{"", ",", "127.0.0.1", "ftp://h:1", "h:1?grpc=x", "h:1?grpc=70000"} {
		if _, err := ParseNodes(bad); !errors.Is(err, ErrBadAddress) {
			t.Errorf("ParseNodes(%q) = %v, want ErrBadAddress", bad, err)
		}
	}
}

func TestOpenRefusesBadOptions(t *testing.T) {
	nodes := []Node{{URL: "http://127.0.0.1:1", GRPC: "127.0.0.1:2"}}
	for _, o := range []Options{
		{Collection: "Medkb"},
		{Nodes: nodes, Collection: "medkb"},
		{Nodes: nodes, Collection: "Medkb", Alias: "a-b"},
		{Nodes: nodes, Collection: "Medkb", VectorIndex: "ivf"},
		{Nodes: nodes, Collection: "Medkb", Replicas: -1},
	} {
		if _, err := Open(o); !errors.Is(err, ErrBadOptions) {
			t.Errorf("Open(%+v) = %v, want ErrBadOptions", o, err)
		}
	}
	ix, err := Open(Options{Nodes: nodes, Collection: "Medkb"})
	if err != nil {
		t.Fatal(err)
	}
	if o := ix.Options(); o.VectorIndex != Flat || o.Replicas != 1 || o.Timeout == 0 {
		t.Errorf("defaults not filled: %+v", o)
	}
	// More replicas than nodes opens (the store's other nodes may be
	// down) but cannot make a collection.
	ix, err = Open(Options{Nodes: nodes, Collection: "Medkb", Replicas: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Create(context.Background()); !errors.Is(err, ErrBadOptions) {
		t.Errorf("Create with 2 replicas on 1 node = %v, want ErrBadOptions", err)
	}
}

// TestUnreachableNamesNodes: a call that no node answers fails with
// ErrUnavailable naming every node.
func TestUnreachableNamesNodes(t *testing.T) {
	nodes, _ := ParseNodes("http://127.0.0.1:9?grpc=9,http://127.0.0.1:11?grpc=11")
	ix, err := Open(Options{Nodes: nodes, Collection: "Medkb", Timeout: 2e9})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ix.SearchBM25(t.Context(), "fever", 10, nil)
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "http://127.0.0.1:9") || !strings.Contains(err.Error(), "http://127.0.0.1:11") {
		t.Errorf("search on dead nodes = %v", err)
	}
}

func TestObjectIDIsStable(t *testing.T) {
	a, b := ObjectID("Medkb_x", 7), ObjectID("Medkb_x", 7)
	if a != b || a == ObjectID("Medkb_x", 8) || a == ObjectID("Medkb_y", 7) {
		t.Errorf("ids: %s %s %s %s", a, b, ObjectID("Medkb_x", 8), ObjectID("Medkb_y", 7))
	}
}

func TestObjectProperties(t *testing.T) {
	d := bm25.Doc{Ord: 3, Doc: "d1", Tier: base.T2, Patient: "P1", Time: 100, Meta: map[string]string{"dept": "cardio"}}
	p := objectProperties(&d, []string{"fever", "fever"})
	if p[propOrd] != int64(3) || p[propTerms] != "fever fever" || p["tier"] != "T2" || p["patient"] != "P1" ||
		p["doc"] != "d1" || p[fieldTime] != int64(100) || p[propMeta].([]string)[0] != "4:dept=cardio" {
		t.Errorf("properties: %v", p)
	}
	for _, absent := range []string{"type", "source", "evidence", "lang"} {
		if _, ok := p[absent]; ok {
			t.Errorf("absent %s stored: %v", absent, p)
		}
	}
	if _, ok := objectProperties(&bm25.Doc{Time: base.NoDay}, nil)[fieldTime]; ok {
		t.Error("NoDay stored as a time")
	}
}

// TestWhere pins the translation of each operator.
func TestWhere(t *testing.T) {
	bind := func(field string, op base.Op, vals ...string) base.Cond {
		c, err := base.BindCond(field, op, vals...)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	cases := []struct {
		f    base.Filter
		want string
	}{
		{nil, "<nil>"},
		{base.Filter{bind("patient", base.OpEq, "P1")}, `where:{operator: ContainsAny path: ["patient"] valueText: ["P1"]}`},
		{base.Filter{bind("tier", base.OpIn, "t1", "T2")}, `where:{operator: ContainsAny path: ["tier"] valueText: ["T1","T2"]}`},
		{base.Filter{bind("meta.dept", base.OpNe, "x")}, `where:{operator: Not operands:[{operator: ContainsAny path: ["meta"] valueText: ["4:dept=x"]}]}`},
		{base.Filter{bind("time", base.OpGe, "1970-01-03"), bind("lang", base.OpEq, "en")},
			`where:{operator: And operands:[{operator: GreaterThanEqual path: ["time"] valueInt: 2},{operator: ContainsAny path: ["lang"] valueText: ["en"]}]}`},
	}
	for _, c := range cases {
		w, err := where(c.f)
		if err != nil {
			t.Fatal(err)
		}
		got := "<nil>"
		if w != nil {
			got = w.String()
		}
		if got != c.want {
			t.Errorf("where(%v) =\n%s\nwant\n%s", c.f, got, c.want)
		}
	}
	if _, err := where(base.Filter{{Field: "tier", Op: base.OpEq, Values: []string{"T1"}}}); !errors.Is(err, base.ErrBadCond) {
		t.Errorf("unbound tier: %v", err)
	}
}
