package graph

import (
	"slices"
	"sort"
	"sync"
	"unicode/utf8"

	ahocorasick "github.com/petar-dambovaliev/aho-corasick"
)

// linker holds the dictionary of every entity's names and aliases and,
// built from it on first use of each start type, one automaton per type.
type linker struct {
	dictOnce sync.Once
	dict     dictionary
	byType   []typeLinker
}

func newLinker(types int) *linker {
	lk := &linker{byType: make([]typeLinker, types)}
	for i := range lk.byType {
		lk.byType[i].ready = make(chan struct{})
	}
	return lk
}

// dictionary is the normalised names and aliases of every entity, of all
// types.
type dictionary struct {
	keys  []string   // sorted
	nodes [][]NodeID // entities per key, by id (so by type)
	runes []int      // runes per key
}

// typeLinker matches the names and aliases of one type's entities. The
// first Link of the type starts building it; ready is closed when it is
// built.
//
// A match is nested when a longer key of any type matches around it.
// Rather than match every type's keys in the text, covers lists, for
// each pattern, the keys that hold it and where; a match is then nested
// when one of those keys is in the text at that place. Building the
// automaton of one type and scanning the keys for its patterns costs a
// fraction of one automaton over every key (Hetionet's 46,746 keys).
type typeLinker struct {
	start  sync.Once
	ready  chan struct{}
	ac     ahocorasick.AhoCorasick
	keys   []int     // dictionary key of each pattern of ac
	covers [][]cover // per pattern, the longer keys that hold it
}

// cover is a dictionary key that holds a pattern at byte offset off.
type cover struct{ key, off int }

// buildTypeLinker fills tl with the automaton of type index t, building
// the dictionary first if no type has.
func (g *Graph) buildTypeLinker(tl *typeLinker, t int) {
	d := &g.linker.dict
	g.linker.dictOnce.Do(func() { g.buildDictionary(d) })
	var patterns []string
	for k, ids := range d.nodes {
		if g.hasType(ids, t) {
			tl.keys = append(tl.keys, k)
			patterns = append(patterns, d.keys[k])
		}
	}
	if len(patterns) == 0 {
		return
	}
	b := ahocorasick.NewAhoCorasickBuilder(ahocorasick.Opts{MatchKind: ahocorasick.StandardMatch})
	tl.ac = b.Build(patterns)
	tl.covers = make([][]cover, len(patterns))
	for k, key := range d.keys {
		it := tl.ac.IterOverlapping(key)
		for m := it.Next(); m != nil; m = it.Next() {
			// A pattern that fails the word-boundary rule inside key
			// fails it in any text where key holds it, so is never
			// matched there.
			if tl.keys[m.Pattern()] != k && boundaryOK(key, m.Start(), m.End()) {
				tl.covers[m.Pattern()] = append(tl.covers[m.Pattern()], cover{key: k, off: m.Start()})
			}
		}
	}
}

// holder returns the longer key that matches around s in text, reaching
// furthest, then starting first (-1 for none): the match that hides s.
func (tl *typeLinker) holder(text string, s span, d *dictionary) int {
	by, byStart, byEnd := -1, 0, 0
	for _, c := range tl.covers[s.pattern] {
		key := d.keys[c.key]
		start := s.start - c.off
		end := start + len(key)
		if start < 0 || end > len(text) || text[start:end] != key || !boundaryOK(text, start, end) {
			continue
		}
		if by < 0 || end > byEnd || end == byEnd && start < byStart {
			by, byStart, byEnd = c.key, start, end
		}
	}
	return by
}

// hasType reports whether ids, sorted, hold an entity of type index t.
func (g *Graph) hasType(ids []NodeID, t int) bool {
	i, _ := slices.BinarySearch(ids, g.typeStart[t])
	return i < len(ids) && ids[i] < g.typeStart[t+1]
}

// buildDictionary fills d with the names and aliases of every entity.
func (g *Graph) buildDictionary(d *dictionary) {
	byKey := map[string][]NodeID{}
	addKey := func(s string, id NodeID) {
		k := normKey(s)
		if hasLetter(k) && !slices.Contains(byKey[k], id) {
			byKey[k] = append(byKey[k], id)
		}
	}
	for t := range g.types {
		for id := g.typeStart[t]; id < g.typeStart[t+1]; id++ {
			addKey(g.names[id], id)
			for _, a := range g.aliases[id] {
				if !isIDAliasOf(g.types[t], a) {
					addKey(a, id)
				}
			}
		}
	}
	d.keys = make([]string, 0, len(byKey))
	for k := range byKey {
		d.keys = append(d.keys, k)
	}
	sort.Strings(d.keys)
	d.nodes = make([][]NodeID, len(d.keys))
	d.runes = make([]int, len(d.keys))
	for i, k := range d.keys {
		d.nodes[i] = byKey[k] // ids ascend: types and names were walked in id order
		d.runes[i] = utf8.RuneCountInString(k)
	}
}
