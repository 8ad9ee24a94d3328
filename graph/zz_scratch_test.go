package graph

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
)

func TestScratchHetionet(t *testing.T) {
	start := time.Now()
	ents, triples, err := LoadHetionet("/work/shared/data/hetionet")
	if err != nil {
		t.Fatal(err)
	}
	load := time.Since(start)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	start = time.Now()
	g := Build(ents, triples)
	build := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&ms)
	fmt.Println("ents", len(ents), "triples", len(triples), "load", load, "build", build, "stats", g.Stats(), "heap delta MB", (int64(ms.HeapAlloc)-int64(before))/1e6)
	fmt.Println(g.Types(), g.Relations())
	m, _ := ParseMetapath("Compound -binds-> Gene <-associates- Disease")
	if err := g.CheckMetapath(m); err != nil {
		t.Fatal(err)
	}
	id, ok := g.Lookup("Compound", "Metformin")
	fmt.Println(id, ok)
	ps, st := g.Expand(context.Background(), []NodeID{id}, m, ExpandOptions{Limit: 5})
	for _, p := range ps {
		fmt.Printf("%.5f %s\n", p.Score, p.Text())
	}
	fmt.Printf("%+v\n", st)
	start = time.Now()
	a := g.Link("Metformin and simvastatin for type 2 diabetes mellitus", "Compound")
	fmt.Println(time.Since(start), a)
	start = time.Now()
	a = g.Link("BRCA1 and TP53 in breast cancer", "Gene")
	fmt.Println(time.Since(start), a)
	start = time.Now()
	a = g.Link("BRCA1 and TP53 in breast cancer", "Disease")
	fmt.Println(time.Since(start), a)
}

func TestScratchBench(t *testing.T) {
	r, err := Bench(context.Background(), "/work/shared/data/hetionet", BenchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Print(r)
}
