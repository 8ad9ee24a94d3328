package planner

import (
	"fmt"
	"strings"

	"github.com/medkb/medkb/internal/base"
)

// assemble numbers the items as citations, fills their document fields and
// writes the context: the cited evidence, ready for a prompt, then the
// source list.
func (x *execution) assemble() error {
	ids := make([]string, len(x.res.Items))
	for i, it := range x.res.Items {
		ids[i] = it.Doc
	}
	docs, err := x.env.Store.Docs(ids)
	if err != nil {
		return err
	}
	var body, sources strings.Builder
	covered := map[string]bool{}
	for i := range x.res.Items {
		it := &x.res.Items[i]
		it.Rank = i + 1
		covered[it.Tier] = true
		d := docs[i]
		if d != nil {
			it.Type, it.Time = d.Type, d.Time
		}
		fmt.Fprintf(&body, "[%d] (%s%s) %s\n", it.Rank, it.Tier, tags(it), it.Text)
		fmt.Fprintf(&sources, "[%d] %s\n", it.Rank, source(it, d))
	}
	for _, t := range base.Tiers {
		if covered[t.String()] {
			x.res.Tiers = append(x.res.Tiers, t.String())
		}
	}
	if len(x.res.Items) > 0 {
		x.res.Context = body.String() + "\nSources:\n" + sources.String()
	}
	return nil
}

// tags describes an item after its tier: type, date, compressed state.
func tags(it *Item) string {
	var t []string
	if it.Type != "" {
		t = append(t, it.Type)
	}
	if it.Time != "" {
		t = append(t, it.Time)
	}
	if it.State == "B" {
		t = append(t, "compressed")
	}
	if len(t) == 0 {
		return ""
	}
	return ", " + strings.Join(t, ", ")
}

// source is an item's line in the source list.
func source(it *Item, d *base.Doc) string {
	if it.Provenance.Path != nil {
		p := it.Provenance.Path
		var b strings.Builder
		b.WriteString("knowledge graph: ")
		for i, n := range p.Nodes {
			if i > 0 {
				rel := p.Relations[i-1]
				if strings.HasPrefix(rel, "<-") {
					fmt.Fprintf(&b, " %s- ", rel)
				} else {
					fmt.Fprintf(&b, " -%s-> ", rel)
				}
			}
			fmt.Fprintf(&b, "%s (%s)", n, p.Types[i])
		}
		return b.String()
	}
	parts := []string{it.ID}
	if d != nil {
		if d.Title != "" {
			parts = append(parts, fmt.Sprintf("%q", d.Title))
		}
		if d.Source != "" {
			parts = append(parts, d.Source)
		}
		if d.Patient != "" {
			parts = append(parts, "patient "+d.Patient)
		}
		if d.Time != "" {
			parts = append(parts, d.Time)
		} else if d.Published != "" {
			parts = append(parts, d.Published)
		}
	}
	return strings.Join(parts, ", ")
}
