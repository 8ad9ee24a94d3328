package graph

import (
	"fmt"
	"slices"
	"strings"
)

// CheckMetapath verifies m against g: every type and relation exists, and
// each step's relation has edges between the step's types in the step's
// direction (for "A <-r- B", edges B -r-> A). The error is a
// *MetapathError at the offending name.
func (g *Graph) CheckMetapath(m *Metapath) error {
	if !g.HasType(m.Start) {
		return &MetapathError{Offset: m.StartPos, Msg: fmt.Sprintf("unknown type %q%s", m.Start, known(g.types))}
	}
	from := m.Start
	for _, s := range m.Steps {
		rel := g.relation(s.Relation)
		if rel == nil {
			return &MetapathError{Offset: s.RelPos, Msg: fmt.Sprintf("unknown relation %q%s", s.Relation, known(g.Relations()))}
		}
		if !g.HasType(s.To) {
			return &MetapathError{Offset: s.ToPos, Msg: fmt.Sprintf("unknown type %q%s", s.To, known(g.types))}
		}
		want := TypePair{Head: from, Tail: s.To}
		if s.Reverse {
			want = TypePair{Head: s.To, Tail: from}
		}
		if !slices.Contains(rel.pairs, want) {
			msg := fmt.Sprintf("relation %q has no edge %s -> %s (it joins %s)", s.Relation, want.Head, want.Tail, joins(rel.pairs))
			if slices.Contains(rel.pairs, TypePair{Head: want.Tail, Tail: want.Head}) {
				flipped := s
				flipped.Reverse = !s.Reverse
				msg += fmt.Sprintf("; did you mean %q?", (&Metapath{Start: from, Steps: []Step{flipped}}).String())
			}
			return &MetapathError{Offset: s.RelPos, Msg: msg}
		}
		from = s.To
	}
	return nil
}

// known lists names for an error message, up to ten of them.
func known(names []string) string {
	if len(names) > 10 {
		return " (known: " + strings.Join(names[:10], ", ") + ", ...)"
	}
	return " (known: " + strings.Join(names, ", ") + ")"
}

func joins(pairs []TypePair) string {
	s := make([]string, len(pairs))
	for i, p := range pairs {
		s[i] = p.Head + " -> " + p.Tail
	}
	return strings.Join(s, ", ")
}
