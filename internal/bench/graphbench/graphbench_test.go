package graphbench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunOnTinyHetionet runs Run on a four-compound graph in Hetionet's
// layout where every treats edge is explained by a CbGaD path and none by
// CrCtD.
func TestRunOnTinyHetionet(t *testing.T) {
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

	r, err := Run(context.Background(), dir, Options{HoldOut: 0.5, Seed: 3})
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
