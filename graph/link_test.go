package graph

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/golden"
)

func TestLinkGolden(t *testing.T) {
	g := loadKG(t)
	golden.Run(t, "testdata/link.txt", func(t *testing.T, c *golden.Case) string {
		anchors := g.Link(c.Input, c.Args["type"])
		if len(anchors) == 0 {
			return "no anchors"
		}
		var b strings.Builder
		for _, a := range anchors {
			if c.Input[a.Start:a.End] != a.Mention {
				t.Errorf("anchor %+v: span does not hold the mention", a)
			}
			fmt.Fprintf(&b, "%d-%d %q %s:%s\n", a.Start, a.End, a.Mention, a.Type, a.Name)
		}
		return b.String()
	})
}

func TestLinkAmbiguousAliasAndIDs(t *testing.T) {
	ents := []base.Entity{
		{Name: "FFAR2 (2867)", Type: "Gene", Aliases: []string{"Gene::2867", "FFAR2"}},
		{Name: "FFAR2 (100)", Type: "Gene", Aliases: []string{"Gene::100", "FFAR2"}},
		{Name: "1136", Type: "Gene"},
	}
	g := Build(ents, nil)
	anchors := g.Link("FFAR2 and 1136 and Gene::100", "Gene")
	if len(anchors) != 2 || anchors[0].Name != "FFAR2 (100)" || anchors[1].Name != "FFAR2 (2867)" {
		t.Fatalf("anchors = %+v, want both FFAR2 genes and nothing else", anchors)
	}
	if ids := AnchorIDs(append(anchors, anchors...)); len(ids) != 2 {
		t.Fatalf("AnchorIDs = %v", ids)
	}
}

func TestLinkConcurrentFirstUse(t *testing.T) {
	g := loadKG(t)
	var wg sync.WaitGroup
	results := make([][]Anchor, 8)
	for i := range results {
		wg.Go(func() { results[i] = g.Link("CKD with high blood pressure", "Disease") })
	}
	wg.Wait()
	for i, r := range results {
		if len(r) != 2 {
			t.Fatalf("goroutine %d: %+v", i, r)
		}
	}
}

func TestNormalize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Heart  Failure", "heart failure"},
		{"ＣＫＤ　患者", "ckd 患者"},
		{"K\u212a", "kk"}, // Kelvin sign folds with k
		{"ΣΑΣ", "σασ"},
		{" a\t\n b ", " a b "},
	} {
		n := normalize(c.in)
		if n.text != c.want {
			t.Errorf("normalize(%q) = %q, want %q", c.in, n.text, c.want)
		}
		if len(n.orig) != len(n.text)+1 || n.orig[len(n.text)] != len(c.in) {
			t.Errorf("normalize(%q): bad offset map %v", c.in, n.orig)
		}
	}
}
