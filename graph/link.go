package graph

import (
	"cmp"
	"context"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Anchor is an entity mentioned in a text.
type Anchor struct {
	Node
	Start, End int    // byte span of the mention in the text
	Mention    string // the text as written there
}

// Skip is a mention of an entity of the asked type that Link did not
// anchor, and why.
type Skip struct {
	Anchor
	Reason string // SkipNested, SkipOneChar or SkipOverlap
	By     string // the longer name that holds or overlaps it (nested, overlap)
}

// Reasons of a Skip.
const (
	SkipNested  = "nested"      // inside a longer name of any type
	SkipOneChar = "one-char"    // a one-character name inside a word
	SkipOverlap = "overlapping" // overlaps a longer or earlier name of the same type
)

// Linked is what one text links to for one type.
type Linked struct {
	Anchors []Anchor
	Skipped []Skip
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

// Link finds the entities of type startType mentioned in text. Names and
// aliases of every type are matched after normalisation (case folding,
// full-width to half-width, white space collapsed); then
//
//   - a match inside a longer match of any type is dropped (nested): in
//     "鸡肠散" the formula is named, not the herb 肠, and Herb 黄连 is not
//     anchored in "黄连解毒汤";
//   - of matches of startType that overlap without nesting, the leftmost,
//     then the longest, is kept;
//   - a one-character name is anchored only when it stands alone: the
//     whole text, or delimited on both sides by the text's ends, white
//     space or punctuation ("黄、黄连" anchors 黄, "黄芩" does not).
//
// A name that begins or ends with a letter or digit of a spaced script
// (Latin, Greek, Cyrillic...) must not touch another such letter or digit
// there, so "ACE" does not fire inside "trace" but "ACE抑制剂" does;
// Chinese and Japanese names match anywhere. Only entities of startType
// are anchored: other types only hide the names nested in theirs. A
// mention shared by several entities (an ambiguous alias) yields one
// anchor per entity. Anchors come in text order, then by id.
//
// A type's automaton is built on first use (thread-safe) and kept.
// Names and aliases without a letter (bare numbers) and Hetionet
// identifier aliases ("Gene::1136") are not linked.
func (g *Graph) Link(text string, startType string) []Anchor {
	out, _ := g.LinkContext(context.Background(), text, startType)
	return out
}

// LinkContext is Link that stops waiting when ctx ends, with ctx's
// error: the first use of a type builds its automaton (on Hetionet,
// 47,031 entities, 0.1-0.4 s on two loaded cores,
// BenchmarkHetionetColdLink), and that build goes on, for the next call,
// while the caller gives up.
func (g *Graph) LinkContext(ctx context.Context, text string, startType string) ([]Anchor, error) {
	l, err := g.LinkReport(ctx, text, startType)
	return l.Anchors, err
}

// LinkReport is LinkContext that also returns the mentions of startType
// it did not anchor (Skip), in text order.
func (g *Graph) LinkReport(ctx context.Context, text string, startType string) (Linked, error) {
	t, ok := g.typeIndex(startType)
	if !ok {
		return Linked{}, nil
	}
	tl := &g.linker.byType[t]
	tl.start.Do(func() {
		go func() {
			g.buildTypeLinker(tl, t)
			close(tl.ready)
		}()
	})
	select {
	case <-tl.ready:
	default:
		select {
		case <-tl.ready:
		case <-ctx.Done():
			return Linked{}, ctx.Err()
		}
	}
	if len(tl.keys) == 0 || text == "" {
		return Linked{}, nil
	}
	d := &g.linker.dict
	n := normalize(text)
	var found []span
	it := tl.ac.IterOverlapping(n.text)
	for m := it.Next(); m != nil; m = it.Next() {
		s := span{start: m.Start(), end: m.End(), pattern: m.Pattern()}
		if boundaryOK(n.text, s.start, s.end) {
			found = append(found, s)
		}
	}
	slices.SortFunc(found, func(a, b span) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end))
	})
	var l Linked
	emit := func(s span, reason, by string) {
		start, end := n.orig[s.start], n.orig[s.end]
		for _, id := range d.nodes[tl.keys[s.pattern]] {
			if g.nodeType[id] != uint16(t) {
				continue
			}
			a := Anchor{Node: g.Node(id), Start: start, End: end, Mention: text[start:end]}
			switch reason {
			case "":
				l.Anchors = append(l.Anchors, a)
			default:
				l.Skipped = append(l.Skipped, Skip{Anchor: a, Reason: reason, By: by})
			}
		}
	}
	end, last := 0, -1
	for _, s := range found {
		k := tl.keys[s.pattern]
		by := tl.holder(n.text, s, d)
		switch {
		case by >= 0:
			emit(s, SkipNested, d.keys[by])
		case s.start < end:
			emit(s, SkipOverlap, d.keys[last])
		case d.runes[k] == 1 && !standsAlone(n.text, s.start, s.end):
			emit(s, SkipOneChar, "")
		default:
			emit(s, "", "")
			end, last = s.end, k
		}
	}
	return l, nil
}

// span is one match of a type's automaton in normalised text.
type span struct{ start, end, pattern int }

// standsAlone reports whether text[start:end] is delimited on both sides
// by the text's ends, white space or punctuation.
func standsAlone(text string, start, end int) bool {
	delim := func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) }
	if start > 0 {
		if before, _ := utf8.DecodeLastRuneInString(text[:start]); !delim(before) {
			return false
		}
	}
	if end < len(text) {
		if after, _ := utf8.DecodeRuneInString(text[end:]); !delim(after) {
			return false
		}
	}
	return true
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
