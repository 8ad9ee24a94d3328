package graph_test

import (
	"context"
	"fmt"

	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/internal/base"
)

func Example() {
	g := graph.Build(
		[]base.Entity{{Name: "heart failure", Type: "Disease", Aliases: []string{"HF"}}},
		[]base.Triple{
			{Head: "heart failure", HeadType: "Disease", Relation: "has_symptom", Tail: "dyspnea", TailType: "Symptom"},
			{Head: "furosemide", HeadType: "Drug", Relation: "treats", Tail: "heart failure", TailType: "Disease"},
		})
	m, err := graph.ParseMetapath("Disease <-treats- Drug")
	if err == nil {
		err = g.CheckMetapath(m)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	anchors := g.Link("Worsening HF despite diuretics", "Disease")
	paths, _ := g.Expand(context.Background(), graph.AnchorIDs(anchors), m, graph.ExpandOptions{Limit: 5})
	for _, p := range paths {
		fmt.Println(p.Text())
	}
	// Output:
	// heart failure is treated by furosemide
}

func ExampleParseMetapath() {
	_, err := graph.ParseMetapath("Disease -has symptom-> Symptom")
	fmt.Println(err)
	m, _ := graph.ParseMetapath("Syndrome-causes*1..3->Syndrome")
	fmt.Println(m)
	// Output:
	// metapath offset 13: expected "->" to close "-has", found "symptom" (names cannot contain spaces; use _)
	// Syndrome -causes*1..3-> Syndrome
}
