package graph

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/medkb/medkb/internal/shareddata"
)

func BenchmarkBuildAuthored(b *testing.B) {
	ents, triples := readKG(b)
	for b.Loop() {
		Build(ents, triples)
	}
}

func BenchmarkExpandAuthored(b *testing.B) {
	g := loadKG(b)
	m := mustParse(b, g, "证候 -导致*1..2-> 证候 -宜用-> 方名 -prescription_type-> 处方 -composition-> 中药名")
	a := []NodeID{mustLookup(b, g, "证候", "肝气郁结")}
	for b.Loop() {
		g.Expand(context.Background(), a, m, ExpandOptions{Limit: 8})
	}
}

// loadHetionet loads and builds the public Hetionet, or skips.
func loadHetionet(b *testing.B) *Graph {
	b.Helper()
	ents, triples, err := LoadHetionet(shareddata.Path(b, "hetionet"))
	if err != nil {
		b.Fatal(err)
	}
	return Build(ents, triples)
}

func BenchmarkHetionetLoadBuild(b *testing.B) {
	dir := shareddata.Path(b, "hetionet")
	var n int
	for b.Loop() {
		ents, triples, err := LoadHetionet(dir)
		if err != nil {
			b.Fatal(err)
		}
		Build(ents, triples)
		n = len(triples)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "triples/s")
}

func BenchmarkHetionetExpandCbGaD(b *testing.B) {
	g := loadHetionet(b)
	m := mustParse(b, g, "Compound -binds-> Gene <-associates- Disease")
	var anchors []NodeID
	for id := range NodeID(g.Stats().Entities) {
		if g.Node(id).Type == "Compound" && len(g.Neighbors(id, "binds", false)) > 0 {
			anchors = append(anchors, id)
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		g.Expand(context.Background(), []NodeID{anchors[rng.IntN(len(anchors))]}, m, ExpandOptions{Limit: 50})
	}
}

// BenchmarkHetionetColdLink measures a graph's first Link of a type, what
// a cold EXPAND query waits for: the dictionary, the type's automaton,
// then the link.
func BenchmarkHetionetColdLink(b *testing.B) {
	g := loadHetionet(b)
	for _, c := range []struct{ typ, text string }{
		{"Disease", "breast cancer"},
		{"Gene", hetionetGeneText},
	} {
		b.Run(c.typ, func(b *testing.B) {
			for b.Loop() {
				g.linker = newLinker(len(g.types))
				if len(g.Link(c.text, c.typ)) == 0 {
					b.Fatalf("%q links to no %s", c.text, c.typ)
				}
			}
		})
	}
}

// BenchmarkHetionetLinkerBuild measures building every type's automaton,
// as GATE does before counting names.
func BenchmarkHetionetLinkerBuild(b *testing.B) {
	g := loadHetionet(b)
	for b.Loop() {
		g.linker = newLinker(len(g.types))
		for _, t := range g.types {
			g.Link("", t)
		}
	}
}

const hetionetGeneText = "BRCA1 and TP53 variants with ERBB2 amplification; PTEN loss in breast cancer treated with tamoxifen"

func BenchmarkHetionetLink(b *testing.B) {
	g := loadHetionet(b)
	g.Link(hetionetGeneText, "Gene")
	for b.Loop() {
		g.Link(hetionetGeneText, "Gene")
	}
}

// BenchmarkHetionetDecode measures opening Hetionet from its binary form,
// what a store does instead of BenchmarkHetionetLoadBuild.
func BenchmarkHetionetDecode(b *testing.B) {
	data, err := loadHetionet(b).MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}
