//go:build weaviate

package weaviate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/medkb/medkb/index/bm25"
	"github.com/medkb/medkb/internal/base"
)

// Cluster returns the nodes of a running cluster ($MEDKB_WEAVIATE_NODES,
// else cluster.sh's), skipping the test when a node does not answer.
func Cluster(tb testing.TB) []Node {
	tb.Helper()
	nodes, err := ParseNodes(cmp.Or(os.Getenv("MEDKB_WEAVIATE_NODES"), LocalNodes))
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := errors.Join(Ready(ctx, nodes)...); err != nil {
		tb.Skipf("no Weaviate cluster (%v): start one with index/weaviate/cluster.sh start DIR, or set MEDKB_WEAVIATE_NODES", err)
	}
	return nodes
}

// tempIndex creates a fresh collection, dropped when the test ends.
func tempIndex(t *testing.T, replicas int) *Index {
	nodes := Cluster(t)
	name := fmt.Sprintf("Medkbtest_%d", time.Now().UnixNano())
	ix, err := Open(Options{Nodes: nodes, Collection: name, Alias: name + "_alias", Replicas: replicas})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := ix.Create(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := ix.Drop(context.Background(), name); err != nil {
			t.Error(err)
		}
	})
	return ix
}

// sample is a small corpus with every filter field, some absent.
func sample() ([]bm25.Doc, [][]float32) {
	docs := []bm25.Doc{
		{Ord: 0, Doc: "a", Text: "Fever and chills after surgery", Tier: base.T1, Type: "note", Patient: "P1", Time: 100, Lang: "en", Meta: map[string]string{"dept": "surgery"}},
		{Ord: 1, Doc: "a", Text: "The fever resolved with paracetamol", Tier: base.T1, Type: "note", Patient: "P1", Time: 101, Lang: "en"},
		{Ord: 2, Doc: "b", Text: "Randomised trial of paracetamol for fever in children", Tier: base.T3, Type: "rct", Time: 50, Source: "pubmed", Lang: "en"},
		{Ord: 3, Doc: "c", Text: "患者发热三天，体温39.5度", Tier: base.T2, Patient: "P2", Time: base.NoDay, Lang: "zh", Meta: map[string]string{"dept": "ped"}},
		{Ord: 4, Doc: "d", Text: "Chest pain radiating to the left arm", Tier: base.T4, Time: 10},
	}
	vecs := make([][]float32, len(docs))
	for i := range docs {
		v := make([]float32, 4)
		v[i%4] = 1
		v[(i+1)%4] = float32(i) / 10
		n := float32(math.Sqrt(float64(1 + v[(i+1)%4]*v[(i+1)%4])))
		for j := range v {
			v[j] /= n
		}
		vecs[i] = v
	}
	return docs, vecs
}

func ords(hs []Hit) []uint64 {
	out := make([]uint64, len(hs))
	for i, h := range hs {
		out[i] = h.Ord
	}
	return out
}

// admitted lists the sample ordinals f admits, by base.Cond's semantics.
func admitted(docs []bm25.Doc, f base.Filter) []uint64 {
	var out []uint64
	for _, d := range docs {
		ok := true
		for _, c := range f {
			switch {
			case c.Field == base.FieldTier:
				ok = ok && c.HoldsTier(d.Tier)
			case c.Field == base.FieldTime:
				ok = ok && c.HoldsDay(d.Time)
			case len(c.Field) > 5 && c.Field[:5] == base.MetaPrefix:
				v, has := d.Meta[c.Field[5:]]
				ok = ok && c.HoldsText(v, has)
			default:
				v := map[string]string{"type": d.Type, "patient": d.Patient, "source": d.Source, "evidence": d.Evidence, "lang": d.Lang, "doc": d.Doc}[c.Field]
				ok = ok && c.HoldsText(v, v != "")
			}
		}
		if ok {
			out = append(out, d.Ord)
		}
	}
	return out
}

func TestClusterFiltersAgreeWithBase(t *testing.T) {
	ix := tempIndex(t, 1)
	ctx := context.Background()
	docs, vecs := sample()
	if err := ix.Apply(ctx, nil, docs, vecs); err != nil {
		t.Fatal(err)
	}
	bind := func(field string, op base.Op, vals ...string) base.Cond {
		c, err := base.BindCond(field, op, vals...)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	filters := []base.Filter{
		nil,
		{bind("patient", base.OpEq, "P1")},
		{bind("patient", base.OpNe, "P1")},
		{bind("tier", base.OpIn, "T1", "T2")},
		{bind("time", base.OpGe, "1970-02-10")},
		{bind("time", base.OpLt, "1970-02-10")},
		{bind("meta.dept", base.OpEq, "ped")},
		{bind("meta.dept", base.OpNe, "ped")},
		{bind("lang", base.OpEq, "en"), bind("type", base.OpNe, "rct")},
		{bind("source", base.OpEq, "pubmed")},
	}
	q := []float32{0.5, 0.5, 0.5, 0.5}
	for _, f := range filters {
		hs, err := ix.SearchVector(ctx, q, 10, f)
		if err != nil {
			t.Fatal(err)
		}
		got := ords(hs)
		slices.Sort(got)
		if want := admitted(docs, f); !slices.Equal(got, want) {
			t.Errorf("filter %v: vector arm gave %v, want %v", f, got, want)
		}
	}
	hs, err := ix.SearchBM25(ctx, "fevers", 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := ords(hs)
	sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
	if !slices.Equal(got, []uint64{0, 1, 2}) { // stemmed: "fevers" finds "fever"
		t.Errorf("bm25 fevers: %v", hs)
	}
	if hs, err = ix.SearchBM25(ctx, "发热", 10, nil); err != nil || !slices.Equal(ords(hs), []uint64{3}) {
		t.Errorf("bm25 发热: %v %v", hs, err)
	}
	if hs, err = ix.SearchBM25(ctx, "fever", 10, base.Filter{bind("patient", base.OpEq, "P1")}); err != nil || len(hs) != 2 {
		t.Errorf("bm25 fever for P1: %v %v", hs, err)
	}
}

// TestClusterApplyIsIdempotent: applying twice, then deleting, leaves
// exactly what the store would hold.
func TestClusterApplyIsIdempotent(t *testing.T) {
	ix := tempIndex(t, 1)
	ctx := context.Background()
	docs, vecs := sample()
	for range 2 {
		if err := ix.Apply(ctx, nil, docs, vecs); err != nil {
			t.Fatal(err)
		}
	}
	if err := ix.Apply(ctx, []uint64{1, 3}, nil, nil); err != nil {
		t.Fatal(err)
	}
	got, err := ix.Ords(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if !slices.Equal(got, []uint64{0, 2, 4}) {
		t.Errorf("after apply twice and delete 1, 3: %v", got)
	}
	hs, err := ix.SearchVector(ctx, vecs[2], 1, nil)
	if err != nil || len(hs) != 1 || hs[0].Ord != 2 || math.Abs(hs[0].Score-1) > 1e-5 {
		t.Errorf("nearest to chunk 2's own vector: %v %v (want ord 2, score 1)", hs, err)
	}
	if err := ix.Clear(ctx); err != nil {
		t.Fatal(err)
	}
	if got, err := ix.Ords(ctx, 0); err != nil || len(got) != 0 {
		t.Errorf("after Clear: %v %v", got, err)
	}
}

func TestClusterAlias(t *testing.T) {
	ix := tempIndex(t, 1)
	ctx := context.Background()
	prev, err := ix.Publish(ctx)
	if err != nil || prev != "" {
		t.Fatalf("first publish: %q %v", prev, err)
	}
	if prev, err = ix.Publish(ctx); err != nil || prev != ix.Options().Collection {
		t.Fatalf("second publish: %q %v", prev, err)
	}
}
