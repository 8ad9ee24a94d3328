package graph

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/golden"
)

func TestLinkGolden(t *testing.T) {
	g := loadKG(t)
	golden.Run(t, "testdata/link.txt", func(t *testing.T, c *golden.Case) string {
		l, err := g.LinkReport(context.Background(), c.Input, c.Args["type"])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(l.Anchors, g.Link(c.Input, c.Args["type"])) {
			t.Errorf("Link and LinkReport differ")
		}
		var b strings.Builder
		if len(l.Anchors) == 0 {
			b.WriteString("no anchors\n")
		}
		for _, a := range l.Anchors {
			if c.Input[a.Start:a.End] != a.Mention {
				t.Errorf("anchor %+v: span does not hold the mention", a)
			}
			fmt.Fprintf(&b, "%d-%d %q %s:%s\n", a.Start, a.End, a.Mention, a.Type, a.Name)
		}
		for _, s := range l.Skipped {
			fmt.Fprintf(&b, "skip %d-%d %q %s:%s %s %s\n", s.Start, s.End, s.Mention, s.Type, s.Name, s.Reason, s.By)
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

// TestLinkContextStopsWaiting: a caller whose context ends stops waiting
// for a type's dictionary, and the build goes on for the next caller.
func TestLinkContextStopsWaiting(t *testing.T) {
	var ents []base.Entity
	for i := range 5000 {
		ents = append(ents, base.Entity{Name: fmt.Sprintf("entity number %d of the large type", i), Type: "Large"})
	}
	g := Build(ents, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if anchors, err := g.LinkContext(ctx, "entity number 7 of the large type", "Large"); !errors.Is(err, context.Canceled) || anchors != nil {
		t.Fatalf("cancelled before the dictionary was built: %v, %v", anchors, err)
	}
	if anchors := g.Link("see entity number 7 of the large type", "Large"); len(anchors) != 1 || anchors[0].Name != "entity number 7 of the large type" {
		t.Fatalf("anchors %+v", anchors)
	}
	// Once built, a live context links as Link does.
	if anchors, err := g.LinkContext(context.Background(), "entity number 8 of the large type", "Large"); err != nil || len(anchors) != 1 {
		t.Fatalf("%v, %v", anchors, err)
	}
}
