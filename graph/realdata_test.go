package graph

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/shareddata"
)

// TestTCMFormulaFiresAlongChineseMetapath reads the public TCM relations,
// links a formula named in a Chinese query, expands along herb metapaths
// and checks every path edge against the raw file, parsed independently.
func TestTCMFormulaFiresAlongChineseMetapath(t *testing.T) {
	path := shareddata.Path(t, "tcm", "relation.jsonl")
	if k, err := Detect(path); err != nil || k != KindTCMRelations {
		t.Fatalf("Detect = %v, %v", k, err)
	}
	var triples []base.Triple
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Two herbs have an empty property in the source; the reader names them.
	err = ReadTriples(f, "relation.jsonl", func(tr base.Triple) error { triples = append(triples, tr); return nil })
	var ie *InputError
	if !errors.As(err, &ie) || ie.Bad != 2 || ie.Lines[0].Error() != `relation.jsonl:11083: empty "tail"` || ie.Lines[1].Line != 11937 {
		t.Fatalf("err = %v, want the two lines with an empty HerbProperty", err)
	}
	if len(triples) != 13503 {
		t.Fatalf("read %d triples, want 13,503", len(triples))
	}
	raw := rawTCMEdges(t, path)
	g := Build(nil, triples)

	const query = "风寒感冒，恶寒发热，予荆防败毒散加减"
	anchors := g.Link(query, "Formula")
	if len(anchors) != 1 || anchors[0].Name != "荆防败毒散" || query[anchors[0].Start:anchors[0].End] != "荆防败毒散" {
		t.Fatalf("anchors = %+v", anchors)
	}
	for _, text := range []string{
		"Formula -HAS_HERB-> Herb",
		"Formula -HAS_HERB-> Herb -MERIDIAN-> Meridian",
		"Formula -HAS_HERB-> Herb <-HAS_HERB- Formula",
		"Formula <-SYN2FOR- Syndrome <-DIS2SYN- Disease",
	} {
		m := mustParse(t, g, text)
		paths, st := g.Expand(context.Background(), AnchorIDs(anchors), m, ExpandOptions{Limit: 50})
		if len(paths) == 0 || st.Truncated {
			t.Fatalf("%s: %d paths, %+v", text, len(paths), st)
		}
		for _, p := range paths {
			checkRealPath(t, g, m, p)
			for i, rel := range p.Relations {
				head, tail := p.Nodes[i], p.Nodes[i+1]
				if p.Reverse[i] {
					head, tail = tail, head
				}
				if !raw[rawEdge{head.Type, head.Name, rel, tail.Type, tail.Name}] {
					t.Fatalf("%s: edge %s %s -%s-> %s %s is not in %s", text, head.Type, head.Name, rel, tail.Type, tail.Name, path)
				}
			}
			if !strings.Contains(p.Text(), "荆防败毒散") {
				t.Fatalf("text %q does not name the anchor", p.Text())
			}
		}
	}
}

type rawEdge struct{ headType, head, rel, tailType, tail string }

// rawTCMEdges reads relation.jsonl with encoding/json alone. The
// direction comes from a fixed table of the file's relation codes, not
// from the reader's rule.
func rawTCMEdges(t *testing.T, path string) map[rawEdge]bool {
	dir := map[string][2]string{
		"DIS2SYN": {"Disease", "Syndrome"}, "SYN2FOR": {"Syndrome", "Formula"}, "SYN2THE": {"Syndrome", "Therapy"},
		"HAS_HERB": {"Formula", "Herb"}, "MERIDIAN": {"Herb", "Meridian"}, "HAS_PROPERTY": {"Herb", "HerbProperty"},
	}
	out := map[rawEdge]bool{}
	withFile(t, path, func(f *os.File) error {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var m map[string]string
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				return err
			}
			if d, ok := dir[m["Relation"]]; ok {
				out[rawEdge{d[0], m[d[0]], m["Relation"], d[1], m[d[1]]}] = true
			}
		}
		return sc.Err()
	})
	return out
}

// TestHetionetFiles reads the public Hetionet node list and the
// Compound-treats-Disease edges.
func TestHetionetFiles(t *testing.T) {
	dir := shareddata.Path(t, "hetionet")
	nodes := filepath.Join(dir, "hetio", "hetionet-v1.0-nodes.tsv")
	edges := filepath.Join(dir, "chizy7_subset", "edges", "Compound_Treats_Disease.tsv")
	for path, want := range map[string]Kind{nodes: KindHetionetNodes, edges: KindHetionetEdges} {
		if k, err := Detect(path); err != nil || k != want {
			t.Fatalf("Detect(%s) = %v, %v; want %v", path, k, err, want)
		}
	}
	var ents []base.Entity
	withFile(t, nodes, func(f *os.File) error {
		return ReadHetionetNodes(f, nodes, func(e base.Entity) error { ents = append(ents, e); return nil })
	})
	var triples []base.Triple
	withFile(t, edges, func(f *os.File) error {
		return ReadHetionetEdges(f, edges, HetionetIDs(ents), func(tr base.Triple) error { triples = append(triples, tr); return nil })
	})
	g := Build(ents, triples)
	if st := g.Stats(); st.Entities != 47031 || st.Triples != 755 || st.Types != 11 {
		t.Fatalf("stats %+v: want 47,031 entities, 755 treats edges, 11 types", st)
	}
	metformin := mustLookup(t, g, "Compound", "Metformin")
	diabetes := mustLookup(t, g, "Disease", "type 2 diabetes mellitus")
	found := false
	for _, d := range g.Neighbors(metformin, "treats", false) {
		found = found || d == diabetes
	}
	if !found {
		t.Fatal("Metformin does not treat type 2 diabetes mellitus")
	}
	for _, name := range []string{"FFAR2 (2867)", "FFAR2 (105372382)"} {
		if _, ok := g.Lookup("Gene", name); !ok {
			t.Errorf("shared gene name not split: no %q", name)
		}
	}
	var ffar2 []base.Entity
	for _, e := range ents {
		if strings.HasPrefix(e.Name, "FFAR") {
			ffar2 = append(ffar2, e)
		}
	}
	if got := Build(ffar2, nil).Link("FFAR2 agonists", "Gene"); len(got) != 2 {
		t.Errorf("FFAR2 links to %d genes, want 2", len(got))
	}
}
