package graph

import (
	"cmp"
	"context"
	"slices"
	"sort"
	"sync"
	"unicode/utf8"

	ahocorasick "github.com/petar-dambovaliev/aho-corasick"
)

// Anchor is an entity mentioned in a text.
type Anchor struct {
	Node
	Start, End int    // byte span of the mention in the text
	Mention    string // the text as written there
}

// AnchorIDs returns the distinct entity ids of anchors, in order of first
// mention.
func AnchorIDs(anchors []Anchor) []NodeID {
	var ids []NodeID
	for _, a := range anchors {
		if !slices.Contains(ids, a.ID) {
			ids = append(ids, a.ID)
		}
	}
	return ids
}

// linkers holds one lazily built dictionary automaton per entity type.
type linkers struct {
	byType []typeLinker
}

func newLinkers(types int) *linkers {
	l := &linkers{byType: make([]typeLinker, types)}
	for i := range l.byType {
		l.byType[i].ready = make(chan struct{})
	}
	return l
}

// typeLinker matches the names and aliases of one type's entities. The
// first Link of the type starts building it; ready is closed when it is
// built.
type typeLinker struct {
	start sync.Once
	ready chan struct{}
	ac    ahocorasick.AhoCorasick
	keys  []string   // normalised patterns, sorted
	nodes [][]NodeID // entities per pattern
}

// Link finds the entities of type startType mentioned in text: names and
// aliases are matched after normalisation (case folding, full-width to
// half-width, white space collapsed), leftmost-longest and without
// overlaps. A name that begins or ends with a letter or digit of a spaced
// script (Latin, Greek, Cyrillic...) must not touch another such letter or
// digit there, so "ACE" does not fire inside "trace" but "ACE抑制剂" does;
// Chinese and Japanese names match anywhere. Only entities of startType
// are considered, so the one-character names of other types never fire.
// A mention shared by several entities (an ambiguous alias) yields one
// anchor per entity. Anchors come in text order, then by id.
//
// The dictionary of a type is built on first use (thread-safe) and kept.
// Names and aliases without a letter (bare numbers) and Hetionet
// identifier aliases ("Gene::1136") are not linked.
func (g *Graph) Link(text string, startType string) []Anchor {
	out, _ := g.LinkContext(context.Background(), text, startType)
	return out
}

// LinkContext is Link that stops waiting when ctx ends, with ctx's
// error: the first use of a large type builds its dictionary (Hetionet's
// 11,381 biological processes take 0.3 s), and that build goes on, for
// the next call, while the caller gives up.
func (g *Graph) LinkContext(ctx context.Context, text string, startType string) ([]Anchor, error) {
	t, ok := g.typeIndex(startType)
	if !ok || text == "" {
		return nil, nil
	}
	lk := &g.linkers.byType[t]
	lk.start.Do(func() {
		go func() {
			g.buildLinker(lk, t)
			close(lk.ready)
		}()
	})
	select {
	case <-lk.ready:
	default:
		select {
		case <-lk.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if len(lk.keys) == 0 {
		return nil, nil
	}
	n := normalize(text)
	var found []span
	it := lk.ac.IterOverlappingByte([]byte(n.text))
	for m := it.Next(); m != nil; m = it.Next() {
		s := span{start: m.Start(), end: m.End(), pattern: m.Pattern()}
		if boundaryOK(n.text, s.start, s.end) {
			found = append(found, s)
		}
	}
	var out []Anchor
	for _, s := range leftmostLongest(found) {
		start, end := n.orig[s.start], n.orig[s.end]
		for _, id := range lk.nodes[s.pattern] {
			out = append(out, Anchor{Node: g.Node(id), Start: start, End: end, Mention: text[start:end]})
		}
	}
	return out, nil
}

// span is one dictionary match in normalised text.
type span struct{ start, end, pattern int }

// leftmostLongest keeps, scanning left to right, the longest match at each
// start that does not overlap the one kept before.
func leftmostLongest(found []span) []span {
	slices.SortFunc(found, func(a, b span) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end), cmp.Compare(a.pattern, b.pattern))
	})
	var kept []span
	end := 0
	for _, s := range found {
		if s.start >= end {
			kept = append(kept, s)
			end = s.end
		}
	}
	return kept
}

// boundaryOK applies the word-boundary rule to the match text[start:end].
func boundaryOK(text string, start, end int) bool {
	first, _ := utf8.DecodeRuneInString(text[start:])
	last, _ := utf8.DecodeLastRuneInString(text[:end])
	if spaced(first) && start > 0 {
		if before, _ := utf8.DecodeLastRuneInString(text[:start]); spaced(before) {
			return false
		}
	}
	if spaced(last) && end < len(text) {
		if after, _ := utf8.DecodeRuneInString(text[end:]); spaced(after) {
			return false
		}
	}
	return true
}

// buildLinker fills lk with the dictionary of type index t.
func (g *Graph) buildLinker(lk *typeLinker, t int) {
	byKey := map[string][]NodeID{}
	addKey := func(s string, id NodeID) {
		k := normKey(s)
		if hasLetter(k) && !slices.Contains(byKey[k], id) {
			byKey[k] = append(byKey[k], id)
		}
	}
	for id := g.typeStart[t]; id < g.typeStart[t+1]; id++ {
		addKey(g.names[id], id)
		for _, a := range g.aliases[id] {
			if !isIDAliasOf(g.types[t], a) {
				addKey(a, id)
			}
		}
	}
	lk.keys = make([]string, 0, len(byKey))
	for k := range byKey {
		lk.keys = append(lk.keys, k)
	}
	sort.Strings(lk.keys)
	lk.nodes = make([][]NodeID, len(lk.keys))
	for i, k := range lk.keys {
		lk.nodes[i] = byKey[k]
	}
	b := ahocorasick.NewAhoCorasickBuilder(ahocorasick.Opts{MatchKind: ahocorasick.StandardMatch})
	lk.ac = b.Build(lk.keys)
}
