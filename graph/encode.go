package graph

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

// The binary form of a Graph (MarshalBinary, Decode) is its compact
// arrays as they are in memory, little-endian, so that a process opens a
// large graph with one read instead of building it from the triples:
//
//	magic "medkbgr" and a version byte
//	u32 nodes, u32 types, u32 relations, u64 duplicates
//	types: u32 length and bytes each, sorted
//	typeStart: types+1 u32
//	names: nodes+1 u32 offsets into a blob, the blob
//	aliases: nodes+1 u32 indexes into the alias list, then the list as
//	  offsets and blob like names
//	relations, sorted by name, each: name; u32 pairs and a (u16 head
//	  type, u16 tail type) per pair; its out and in adjacency
//	adjacency: u32 lo, u32 offsets and the offsets, u32 targets and the
//	  targets, u8 weighted and, if 1, a float32 per target
//
// nodeType and the triple count are derived again when decoding. Decode
// checks every length, index and order that the graph's methods rely on,
// so a damaged or foreign input is an error, never a panic or a wrong
// answer; a checksum over the bytes is the caller's to keep (the store
// keeps one beside its sequence).

// binaryMagic starts the binary form; its last byte is the version.
const binaryMagic = "medkbgr\x01"

// ErrBadEncoding is returned (wrapped) by Decode for input that is not a
// graph this version wrote, or is damaged.
var ErrBadEncoding = errors.New("medkb: bad graph encoding")

// MarshalBinary returns the graph's binary form, which Decode reads back.
func (g *Graph) MarshalBinary() ([]byte, error) {
	var e encoder
	e.b = make([]byte, 0, g.encodedSize())
	e.b = append(e.b, binaryMagic...)
	e.u32(len(g.names))
	e.u32(len(g.types))
	e.u32(len(g.rels))
	e.u64(uint64(g.dups))
	for _, t := range g.types {
		e.str(t)
	}
	for _, s := range g.typeStart {
		e.u32(int(s))
	}
	e.strs(g.names)
	var all []string
	e.u32(0)
	for _, as := range g.aliases {
		all = append(all, as...)
		e.u32(len(all))
	}
	e.strs(all)
	for i := range g.rels {
		r := &g.rels[i]
		e.str(r.name)
		e.u32(len(r.pairs))
		for _, p := range r.pairs {
			h, _ := g.typeIndex(p.Head)
			t, _ := g.typeIndex(p.Tail)
			e.b = binary.LittleEndian.AppendUint16(e.b, uint16(h))
			e.b = binary.LittleEndian.AppendUint16(e.b, uint16(t))
		}
		e.adjacency(&r.out)
		e.adjacency(&r.in)
	}
	if e.tooLarge {
		return nil, fmt.Errorf("%w: a section exceeds 4 GiB", ErrBadEncoding)
	}
	return e.b, nil
}

// encodedSize is the length of the binary form, near enough to allocate
// it once.
func (g *Graph) encodedSize() int {
	n := len(binaryMagic) + 20 + 4*(2*len(g.names)+len(g.typeStart)+4)
	for _, s := range g.names {
		n += len(s)
	}
	for _, as := range g.aliases {
		for _, a := range as {
			n += 4 + len(a)
		}
	}
	for _, t := range g.types {
		n += 4 + len(t)
	}
	for i := range g.rels {
		r := &g.rels[i]
		n += 8 + len(r.name) + 4*len(r.pairs) + int(r.out.bytes()+r.in.bytes()) + 2*13
	}
	return n
}

type encoder struct {
	b        []byte
	tooLarge bool
}

func (e *encoder) u32(v int) {
	if v < 0 || v > math.MaxUint32 {
		e.tooLarge = true
	}
	e.b = binary.LittleEndian.AppendUint32(e.b, uint32(v))
}

func (e *encoder) u64(v uint64) { e.b = binary.LittleEndian.AppendUint64(e.b, v) }

func (e *encoder) str(s string) {
	e.u32(len(s))
	e.b = append(e.b, s...)
}

// strs writes a list whose length the reader knows: len+1 offsets, then
// the bytes.
func (e *encoder) strs(ss []string) {
	off := 0
	e.u32(0)
	for _, s := range ss {
		off += len(s)
		e.u32(off)
	}
	for _, s := range ss {
		e.b = append(e.b, s...)
	}
}

func (e *encoder) adjacency(a *adjacency) {
	e.u32(int(a.lo))
	e.u32(len(a.offsets))
	for _, o := range a.offsets {
		e.b = binary.LittleEndian.AppendUint32(e.b, o)
	}
	e.u32(len(a.targets))
	for _, t := range a.targets {
		e.b = binary.LittleEndian.AppendUint32(e.b, uint32(t))
	}
	if a.weights == nil {
		e.b = append(e.b, 0)
		return
	}
	e.b = append(e.b, 1)
	for _, w := range a.weights {
		e.b = binary.LittleEndian.AppendUint32(e.b, math.Float32bits(w))
	}
}

// Decode reads a graph from its binary form (MarshalBinary). The graph
// keeps no reference to data.
func Decode(data []byte) (*Graph, error) {
	d := &decoder{b: data}
	if string(d.next(len(binaryMagic))) != binaryMagic {
		return nil, fmt.Errorf("%w: not a graph of this version (magic %q)", ErrBadEncoding, data[:min(len(data), len(binaryMagic))])
	}
	nodes, types, rels := d.count(4), d.count(4), d.count(8)
	g := &Graph{dups: int(d.u64())}
	for range types {
		g.types = append(g.types, d.str())
	}
	g.typeStart = make([]NodeID, 0, types+1)
	for range types + 1 {
		g.typeStart = append(g.typeStart, NodeID(d.u32()))
	}
	g.names = d.strs(nodes)
	aliasEnd := d.u32s(nodes + 1)
	var all []string
	if d.err == nil {
		all = d.strs(d.length(aliasEnd, -1))
	}
	for range rels {
		if d.err != nil {
			break
		}
		r := relation{name: d.str()}
		for range d.count(4) {
			h, t := int(d.u16()), int(d.u16())
			if h >= types || t >= types {
				d.fail("relation %q: a type pair names type %d of %d", r.name, max(h, t), types)
				break
			}
			r.pairs = append(r.pairs, TypePair{g.types[h], g.types[t]})
		}
		r.out, r.in = d.adjacency(nodes), d.adjacency(nodes)
		g.rels = append(g.rels, r)
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d bytes after the last relation", len(d.b))
	}
	if d.err != nil {
		return nil, d.err
	}
	if err := g.checkDecoded(aliasEnd, all); err != nil {
		return nil, err
	}
	g.linker = newLinker(len(g.types))
	return g, nil
}

// checkDecoded checks the orders the methods rely on and derives the
// node types, the aliases per node and the triple count.
func (g *Graph) checkDecoded(aliasEnd []uint32, all []string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadEncoding, fmt.Sprintf(format, args...))
	}
	nodes := len(g.names)
	if len(g.types) > math.MaxUint16+1 {
		return bad("%d types, at most %d", len(g.types), math.MaxUint16+1)
	}
	if !isStrictlySorted(g.types) {
		return bad("types are not sorted")
	}
	if g.typeStart[0] != 0 || int(g.typeStart[len(g.types)]) != nodes {
		return bad("type ranges do not cover the %d nodes", nodes)
	}
	g.nodeType = make([]uint16, nodes)
	for t := range g.types {
		lo, hi := g.typeStart[t], g.typeStart[t+1]
		if lo >= hi || int(hi) > nodes || !isStrictlySorted(g.names[lo:hi]) {
			return bad("type %q: its nodes are not a non-empty range sorted by name", g.types[t])
		}
		for id := lo; id < hi; id++ {
			g.nodeType[id] = uint16(t)
		}
	}
	g.aliases = make([][]string, nodes)
	for n := range nodes { // Decode checked that aliasEnd rises from 0 to len(all)
		if lo, hi := aliasEnd[n], aliasEnd[n+1]; lo < hi {
			g.aliases[n] = all[lo:hi:hi]
		}
	}
	for i := range g.rels {
		r := &g.rels[i]
		if i > 0 && g.rels[i-1].name >= r.name {
			return bad("relations are not sorted by name at %q", r.name)
		}
		if len(r.out.targets) != len(r.in.targets) {
			return bad("relation %q has %d edges one way and %d the other", r.name, len(r.out.targets), len(r.in.targets))
		}
		g.triples += len(r.out.targets)
	}
	return nil
}

func isStrictlySorted(ss []string) bool {
	for i := 1; i < len(ss); i++ {
		if ss[i-1] >= ss[i] {
			return false
		}
	}
	return true
}

// decoder reads the binary form; the first problem sticks in err and
// every later read returns zero values.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrBadEncoding, fmt.Sprintf(format, args...))
	}
	d.b = nil
}

func (d *decoder) next(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.b) {
		d.fail("truncated: %d bytes wanted, %d left", n, len(d.b))
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) u16() uint16 {
	if b := d.next(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if b := d.next(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if b := d.next(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// count reads a count of things that take at least size bytes each, and
// fails when the rest of the input cannot hold them (so a damaged count
// never allocates much).
func (d *decoder) count(size int) int {
	n := int(d.u32())
	if n > len(d.b)/size {
		d.fail("a count of %d exceeds the %d bytes left", n, len(d.b))
		return 0
	}
	return n
}

func (d *decoder) str() string {
	return string(d.next(d.count(1)))
}

// u32s reads n u32 values.
func (d *decoder) u32s(n int) []uint32 {
	b := d.next(4 * n)
	if b == nil {
		return nil
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

// length returns the last of offsets, which must start at 0 and never
// decrease, and be at most limit (no limit when negative).
func (d *decoder) length(offsets []uint32, limit int) int {
	if len(offsets) == 0 || offsets[0] != 0 || !slices.IsSorted(offsets) {
		d.fail("offsets out of order")
		return 0
	}
	n := int(offsets[len(offsets)-1])
	if limit >= 0 && n > limit {
		d.fail("offsets end at %d, past %d", n, limit)
		return 0
	}
	return n
}

// strs reads n strings written by encoder.strs; they share one backing
// string.
func (d *decoder) strs(n int) []string {
	offsets := d.u32s(n + 1)
	if d.err != nil {
		return nil
	}
	end := d.length(offsets, len(d.b))
	blob := string(d.next(end))
	if d.err != nil {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = blob[offsets[i]:offsets[i+1]]
	}
	return out
}

// adjacency reads one adjacency over a graph of nodes nodes and checks
// what neighbours and degree rely on: offsets from 0 that never decrease
// and end at the targets' count, rows within the nodes, targets that are
// nodes and sorted without repeats in each row.
func (d *decoder) adjacency(nodes int) adjacency {
	a := adjacency{lo: NodeID(d.u32())}
	offsets := d.u32s(d.count(4))
	n := d.count(4)
	targets := d.next(4 * n)
	weighted := d.next(1)
	if d.err != nil {
		return a
	}
	if weighted[0] > 1 {
		d.fail("weighted flag %d", weighted[0])
		return a
	}
	if end := d.length(offsets, n); d.err != nil || end != n || int(a.lo)+len(offsets)-1 > nodes {
		d.fail("adjacency rows do not match its %d targets and %d nodes", n, nodes)
		return adjacency{}
	}
	a.offsets = offsets
	a.targets = make([]NodeID, n)
	for i := 0; i+1 < len(offsets); i++ {
		for k := offsets[i]; k < offsets[i+1]; k++ {
			t := NodeID(binary.LittleEndian.Uint32(targets[4*k:]))
			if int(t) >= nodes || (k > offsets[i] && t <= a.targets[k-1]) {
				d.fail("adjacency row %d: targets not sorted nodes", int(a.lo)+i)
				return adjacency{}
			}
			a.targets[k] = t
		}
	}
	if weighted[0] == 1 {
		ws := d.u32s(n)
		if d.err != nil {
			return adjacency{}
		}
		a.weights = make([]float32, len(ws))
		for i, w := range ws {
			a.weights[i] = math.Float32frombits(w)
		}
	}
	return a
}
