package graph

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/shareddata"
)

// TestBenchOnTinyHetionet runs Bench on a four-compound graph in Hetionet's
// layout where every treats edge is explained by a CbGaD path and none by
// CrCtD.
func TestBenchOnTinyHetionet(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines ...string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(lines, "\r\n")+"\r\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	nodes := []string{"id\tname\tkind"}
	var binds, assoc, treats []string
	for _, i := range []string{"1", "2", "3", "4"} {
		nodes = append(nodes, "Compound::C"+i+"\tdrug "+i+"\tCompound", "Gene::"+i+"\tGENE"+i+"\tGene", "Disease::D"+i+"\tdisease "+i+"\tDisease")
		binds = append(binds, "C"+i+"\t"+i)
		assoc = append(assoc, "D"+i+"\t"+i)
		treats = append(treats, "C"+i+"\tD"+i)
	}
	write("nodes.tsv", nodes...)
	write("edges/Compound_Binds_Gene.tsv", append([]string{":START_ID(Compound)\t:END_ID(Gene)"}, binds...)...)
	write("edges/Disease_Associates_Gene.tsv", append([]string{":START_ID(Disease)\t:END_ID(Gene)"}, assoc...)...)
	write("edges/Compound_Treats_Disease.tsv", append([]string{":START_ID(Compound)\t:END_ID(Disease)"}, treats...)...)
	write("edges/Compound_Resembles_Compound.tsv", ":START_ID(Compound)\t:END_ID(Compound)", "C1\tC2")
	write("metaedges.tsv", "metaedge\tabbreviation\tedges\tsource_nodes\ttarget_nodes") // ignored

	r, err := Bench(context.Background(), dir, BenchOptions{HoldOut: 0.5, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Graph.Entities != 12 || r.TriplesRead != 4*3+2 || r.Graph.Triples != 14 || r.Latency.Anchors != 4 || r.Latency.MeanPaths != 1 {
		t.Fatalf("result %+v", r)
	}
	rec := r.Recovery
	if rec.TreatsEdges != 4 || rec.HeldOut != 2 || len(rec.Rows) != 3 {
		t.Fatalf("recovery %+v", rec)
	}
	cbgad, crctd, either := rec.Rows[0], rec.Rows[1], rec.Rows[2]
	if cbgad.RateLimited != 1 || cbgad.RateUnlimited != 1 || cbgad.MeanReached != 1 {
		t.Errorf("CbGaD %+v, want every held-out edge recovered", cbgad)
	}
	// C1 resembles C2, but a held-out (Ci, Di) is only reachable through
	// Ci's own treats edge, which is gone.
	if crctd.HitsLimited != 0 || crctd.HitsUnlimited != 0 {
		t.Errorf("CrCtD %+v, want no hits", crctd)
	}
	if either.HitsUnlimited != 2 {
		t.Errorf("either %+v", either)
	}
	if !strings.Contains(r.String(), "recovery 2 of 4 treats edges held out") {
		t.Errorf("report:\n%s", r)
	}
}

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
	m := mustParse(b, g, benchCbGaD)
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

func BenchmarkHetionetLinkerBuild(b *testing.B) {
	g := loadHetionet(b)
	for b.Loop() {
		for t := range g.types {
			var lk typeLinker
			g.buildLinker(&lk, t)
		}
	}
}

func BenchmarkHetionetLink(b *testing.B) {
	g := loadHetionet(b)
	const text = "BRCA1 and TP53 variants with ERBB2 amplification; PTEN loss in breast cancer treated with tamoxifen"
	g.Link(text, "Gene")
	for b.Loop() {
		g.Link(text, "Gene")
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
