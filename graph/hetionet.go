package graph

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/medkb/medkb/internal/base"
)

// Hetionet's layout: node ids carry their kind ("Compound::DB00014") in
// the node file, edge files name the kinds in their neo4j-import header
// (":START_ID(Compound)	:END_ID(Gene)") and give bare ids. medkb keys
// entities by (type, name), so the readers translate:
//
//   - the entity name is the node's name; when several nodes of one kind
//     share a name (two genes are called FFAR2), each becomes "NAME (ID)"
//     and keeps NAME as an alias, so no node is lost; so does a node whose
//     name is already such a qualified name (qualifyShared);
//   - every entity gets the identifier alias "Type::ID" (HetionetIDs turns
//     them back into an id index for edge files; the linker ignores them);
//   - the type is the kind with spaces replaced by '_' ("Side_Effect"),
//     so that every type can be named in a metapath;
//   - the relation is the lower-cased second '_'-separated field of the
//     edge file's name: Compound_Binds_Gene.tsv gives "binds";
//   - the undirected metaedges, resembles, interacts and covaries between
//     nodes of one kind, are emitted in both directions, so that
//     `Compound -resembles-> Compound` finds every resemblance.

var (
	neo4jNodeID  = regexp.MustCompile(`^[^:]*:ID\((.+)\)$`)
	neo4jStartID = regexp.MustCompile(`^:START_ID\((.+)\)$`)
	neo4jEndID   = regexp.MustCompile(`^:END_ID\((.+)\)$`)
)

// nodeLayout says where a node file keeps its fields.
type nodeLayout struct {
	id, name, kind int    // column positions; kind is -1 when fixed
	fixedKind      string // the kind named in a neo4j-import header
}

func hetionetNodeHeader(f []string) (nodeLayout, bool) {
	low := make([]string, len(f))
	for i, s := range f {
		low[i] = strings.ToLower(strings.TrimSpace(s))
	}
	if len(low) == 3 && low[0] == "id" && low[1] == "name" && low[2] == "kind" {
		return nodeLayout{id: 0, name: 1, kind: 2}, true
	}
	m := neo4jNodeID.FindStringSubmatch(strings.TrimSpace(f[0]))
	if m == nil {
		return nodeLayout{}, false
	}
	for i, s := range low {
		if s == "name" {
			return nodeLayout{id: 0, name: i, kind: -1, fixedKind: m[1]}, true
		}
	}
	return nodeLayout{}, false
}

func hetionetEdgeHeader(f []string) (startKind, endKind string, ok bool) {
	if len(f) < 2 {
		return "", "", false
	}
	s := neo4jStartID.FindStringSubmatch(strings.TrimSpace(f[0]))
	e := neo4jEndID.FindStringSubmatch(strings.TrimSpace(f[1]))
	if s == nil || e == nil {
		return "", "", false
	}
	return s[1], e[1], true
}

// hetNode is one row of a node file.
type hetNode struct {
	typ, id, name string
}

// ReadHetionetNodes reads a Hetionet node file (header "id name kind" with
// ids "Kind::ID", or a neo4j-import file with header "xId:ID(Kind) name")
// and calls fn for each node, in file order, translated as described at
// the top of this file. The whole file is read before fn is first called,
// to find shared names. Bad lines are reported as by ReadTriples.
func ReadHetionetNodes(r io.Reader, name string, fn func(base.Entity) error) error {
	lr := newLineReader(r, name)
	var layout *nodeLayout
	var nodes []hetNode
	seen := map[string]bool{}
	for lr.scan() {
		f := strings.Split(string(lr.line), "\t")
		if layout == nil {
			l, ok := hetionetNodeHeader(f)
			if !ok {
				return lr.errorf("want a Hetionet node header (id, name, kind) or a neo4j-import one (...:ID(Kind), name): %w", ErrUnknownFormat)
			}
			layout = &l
			continue
		}
		n, msg := layout.parse(f)
		if msg == "" && seen[n.typ+"::"+n.id] {
			msg = fmt.Sprintf("duplicate id %s::%s", n.typ, n.id)
		}
		if msg != "" {
			lr.reject("%s", msg)
			continue
		}
		seen[n.typ+"::"+n.id] = true
		nodes = append(nodes, n)
	}
	if lr.err != nil {
		return lr.err
	}
	qualified := qualifyShared(nodes)
	for i, n := range nodes {
		e := base.Entity{Name: n.name, Type: n.typ, Aliases: []string{n.typ + "::" + n.id}}
		if qualified[i] {
			e.Name = qualifiedName(n)
			if n.name != e.Aliases[0] {
				e.Aliases = append(e.Aliases, n.name)
			}
		}
		if err := fn(e); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return lr.result()
}

// qualifyShared marks the nodes whose name must carry their id: those
// whose name another node of their kind shares, and then, until no two
// names agree, those whose name is another's qualified name (a gene
// called "X (1)" beside two called "X", one of them Gene::1). Two
// qualified names can agree only if an id holds ") (", which no real
// node file has.
func qualifyShared(nodes []hetNode) []bool {
	qualified := make([]bool, len(nodes))
	final := func(i int) [2]string {
		if qualified[i] {
			return [2]string{nodes[i].typ, qualifiedName(nodes[i])}
		}
		return [2]string{nodes[i].typ, nodes[i].name}
	}
	for changed := true; changed; {
		changed = false
		count := map[[2]string]int{}
		for i := range nodes {
			count[final(i)]++
		}
		for i := range nodes {
			if !qualified[i] && count[final(i)] > 1 {
				qualified[i], changed = true, true
			}
		}
	}
	return qualified
}

// qualifiedName is "NAME (ID)".
func qualifiedName(n hetNode) string { return fmt.Sprintf("%s (%s)", n.name, n.id) }

func (l nodeLayout) parse(f []string) (hetNode, string) {
	if need := max(l.id, l.name, l.kind) + 1; len(f) < need {
		return hetNode{}, fmt.Sprintf("%d tab-separated fields, want %d", len(f), need)
	}
	id, name, kind := strings.TrimSpace(f[l.id]), strings.TrimSpace(f[l.name]), l.fixedKind
	if l.kind >= 0 {
		kind = strings.TrimSpace(f[l.kind])
		prefix, rest, ok := strings.Cut(id, "::")
		if !ok || prefix != kind {
			return hetNode{}, fmt.Sprintf("id %q does not start with its kind %q and \"::\"", id, kind)
		}
		id = rest
	}
	typ := typeName(kind)
	switch {
	case len(typ) > MaxTypeBytes:
		return hetNode{}, fmt.Sprintf("kind is %d bytes, more than %d", len(kind), MaxTypeBytes)
	case !IsName(typ):
		return hetNode{}, fmt.Sprintf("kind %q is not a name (letters, digits, spaces and _ only)", kind)
	}
	// A shared name becomes "NAME (ID)": each gets half of a name's room.
	for _, f := range []struct{ field, v string }{{"id", id}, {"name", name}} {
		if msg := checkName(f.field, f.v); msg != "" {
			return hetNode{}, msg
		}
		if msg := checkText(f.field, f.v, MaxNameBytes/2); msg != "" {
			return hetNode{}, msg
		}
	}
	return hetNode{typ: typ, id: id, name: name}, ""
}

// HetionetIDs indexes the identifier aliases ("Type::ID") of ents by that
// alias, giving the entity name: the id index ReadHetionetEdges needs. It
// works on entities read back from a store as well as on fresh ones.
//
// A qualified node ("NAME (ID)") also has its bare name as an alias, and
// that name may look like an id ("Gene::7"): when an entity's name ends in
// the id of one of its id aliases, that alias alone is its id.
func HetionetIDs(ents []base.Entity) map[string]string {
	ids := make(map[string]string, len(ents))
	for _, e := range ents {
		qualified := false
		for _, a := range e.Aliases {
			if isIDAliasOf(e.Type, a) && strings.HasSuffix(e.Name, " ("+a[len(e.Type)+2:]+")") {
				ids[a], qualified = e.Name, true
			}
		}
		for _, a := range e.Aliases {
			if !qualified && isIDAliasOf(e.Type, a) {
				ids[a] = e.Name
			}
		}
	}
	return ids
}

// isIDAliasOf reports whether a is a Hetionet identifier alias of an
// entity of type typ: "typ::ID".
func isIDAliasOf(typ, a string) bool {
	return len(a) > len(typ)+2 && strings.HasPrefix(a, typ) && strings.HasPrefix(a[len(typ):], "::")
}

// ReadHetionetEdges reads one neo4j-import edge file (header
// ":START_ID(Kind)	:END_ID(Kind)"; further columns are ignored) and calls
// fn for each edge, resolving ids through ids (from HetionetIDs). name is
// the file's path: its base name gives the relation. An id missing from
// ids makes the line bad. Bad lines are reported as by ReadTriples.
func ReadHetionetEdges(r io.Reader, name string, ids map[string]string, fn func(base.Triple) error) error {
	rel, err := hetionetRelation(name)
	if err != nil {
		return err
	}
	source := filepath.Base(name)
	lr := newLineReader(r, name)
	var startType, endType string
	var key []byte
	for lr.scan() {
		if startType == "" {
			s, e, ok := hetionetEdgeHeader(strings.Split(string(lr.line), "\t"))
			if !ok {
				return lr.errorf("want a neo4j-import edge header (:START_ID(Kind), :END_ID(Kind)): %w", ErrUnknownFormat)
			}
			startType, endType = typeName(s), typeName(e)
			if !IsName(startType) || !IsName(endType) {
				return lr.errorf("kinds %q and %q must be names: %w", s, e, ErrBadInput)
			}
			continue
		}
		startID, rest, ok := bytes.Cut(lr.line, []byte("\t"))
		endID, _, _ := bytes.Cut(rest, []byte("\t"))
		if !ok {
			lr.reject("1 tab-separated field, want 2")
			continue
		}
		head, okH := lookupID(ids, &key, startType, startID)
		tail, okT := lookupID(ids, &key, endType, endID)
		if !okH || !okT {
			lr.reject("unknown node id %s", unknownID(okH, startType, string(startID), endType, string(endID)))
			continue
		}
		t := base.Triple{Head: head, HeadType: startType, Relation: rel, Tail: tail, TailType: endType, Source: source}
		if err := fn(t); err != nil {
			return lr.errorf("%w", err)
		}
		if undirected(rel) && startType == endType && head != tail {
			t.Head, t.Tail = t.Tail, t.Head
			if err := fn(t); err != nil {
				return lr.errorf("%w", err)
			}
		}
	}
	return lr.result()
}

// lookupID resolves a node id through ids, building the key "Type::ID" in
// *buf so that a lookup allocates nothing.
func lookupID(ids map[string]string, buf *[]byte, typ string, id []byte) (string, bool) {
	*buf = append(append(append((*buf)[:0], typ...), "::"...), bytes.TrimSpace(id)...)
	name, ok := ids[string(*buf)]
	return name, ok
}

func unknownID(headKnown bool, startType, head, endType, tail string) string {
	if !headKnown {
		return startType + "::" + strings.TrimSpace(head) + " (read the node files first)"
	}
	return endType + "::" + strings.TrimSpace(tail) + " (read the node files first)"
}

// undirected reports whether Hetionet's verb names an undirected metaedge.
func undirected(verb string) bool {
	switch verb {
	case "resembles", "interacts", "covaries":
		return true
	}
	return false
}

// hetionetRelation derives the relation from an edge file's name.
func hetionetRelation(path string) (string, error) {
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	parts := strings.Split(stem, "_")
	if len(parts) < 3 || !IsName(strings.ToLower(parts[1])) {
		return "", fmt.Errorf("%s: edge file name must read Kind_Verb_Kind (e.g. Compound_Binds_Gene.tsv): %w", path, ErrBadInput)
	}
	return strings.ToLower(parts[1]), nil
}
