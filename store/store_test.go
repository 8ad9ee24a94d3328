package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/medkb/medkb/internal/base"
)

const testDim = 4

// openTest opens a fresh store and checks its consistency when the test ends.
func openTest(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "kb"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, p := range s.Check() {
			t.Errorf("check: %v", p)
		}
		s.Close()
	})
	return s
}

func docWrite(id string, tier base.Tier, texts ...string) DocWrite {
	w := DocWrite{Doc: base.Doc{ID: id, Text: "x", Tier: tier, Patient: "P1", Time: "2020-01-02"}}
	w.Day, _ = base.ParseDay(w.Doc.Time)
	for i, tx := range texts {
		w.Chunks = append(w.Chunks, base.Chunk{Text: tx, TokensA: len(tx), Tier: tier, Keys: []string{"k"}, NTotal: 1})
		unit := make([]float32, testDim) // vectors are normalised
		unit[i%testDim] = 1
		w.Vectors = append(w.Vectors, unit...)
	}
	return w
}

func write(t *testing.T, s *Store, b *Batch) *Change {
	t.Helper()
	if b.Embedder == "" {
		b.Embedder, b.Dim = "test", testDim
	}
	ch, err := s.Write(b)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

func TestWriteUpsertDelete(t *testing.T) {
	s := openTest(t)
	ch := write(t, s, &Batch{Put: []DocWrite{docWrite("b", base.T2, "b0", "b1"), docWrite("a", base.T1, "a0")}})
	if ch.Seq != 1 || len(ch.Added) != 3 || len(ch.Deleted) != 0 {
		t.Fatalf("first write: seq %d added %d deleted %d", ch.Seq, len(ch.Added), len(ch.Deleted))
	}
	// Sorted by id: a's chunk gets ordinal 0.
	if ch.Added[0].Chunk.Doc != "a" || ch.Added[0].Chunk.Ord != 0 || ch.Added[2].Chunk.Index != 1 {
		t.Fatalf("ordinals not assigned in id order: %+v", ch.Added[0].Chunk)
	}
	ch = write(t, s, &Batch{Put: []DocWrite{docWrite("b", base.T3, "b0 new")}})
	if len(ch.Deleted) != 2 || ch.Added[0].Chunk.Ord != 3 {
		t.Fatalf("upsert: deleted %v added ord %d", ch.Deleted, ch.Added[0].Chunk.Ord)
	}
	m, _ := s.Meta()
	if m.Docs != 2 || m.Chunks != 2 || m.Vectors != 2 || m.Tiers != [4]int{1, 0, 1, 0} || m.Seq != 2 {
		t.Fatalf("meta after upsert: %+v", m)
	}
	ch = write(t, s, &Batch{Delete: []string{"a", "nope"}})
	if len(ch.Deleted) != 1 || ch.Deleted[0] != 0 {
		t.Fatalf("delete: %v", ch.Deleted)
	}
	d, ords, err := s.Doc("b")
	if err != nil || d.Tier != base.T3 || len(ords) != 1 || ords[0] != 3 {
		t.Fatalf("doc b: %+v %v %v", d, ords, err)
	}
	cs, err := s.Chunks([]uint64{0, 3})
	if err != nil || cs[0] != nil || cs[1].Text != "b0 new" || cs[1].Keys[0] != "k" {
		t.Fatalf("chunks: %+v %v", cs, err)
	}
}

// TestChunkCodec round-trips a chunk with every field set, and reads
// chunks written by older versions, which end earlier and carry no
// checksum: one written before the tier's reason was recorded reads with
// TierBy "", one written before the flags byte existed as having no flags
// either. A flipped byte anywhere in a record with a checksum is an error.
func TestChunkCodec(t *testing.T) {
	c := base.Chunk{Ord: 7, Doc: "d", Index: 2, Tier: base.T1, Text: "penicillin anaphylaxis", TokensA: 3,
		TextB: "anaphylaxis", TokensB: 1, VectorB: []float32{0.5, -1}, Keys: []string{"anaphylaxis"},
		NEntity: 1, NTotal: 1, Permanent: true, TierBy: "text rule: allergy", TierOwn: true}
	b := encodeChunk(&c)
	got, err := decodeChunk(7, b)
	if err != nil || !reflect.DeepEqual(*got, c) {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	// An old record: no checksum, and the flags byte without flagSum.
	old := bytes.Clone(b[:len(b)-4])
	flagsEnd := len(old) - 1 - len(c.TierBy) // a one-byte length, then the text
	old[flagsEnd-1] &^= flagSum
	noReason, err := decodeChunk(7, old[:flagsEnd])
	if err != nil || !noReason.Permanent || !noReason.TierOwn || noReason.TierBy != "" || noReason.NTotal != 1 {
		t.Fatalf("chunk without the tier's reason: %+v %v", noReason, err)
	}
	noFlags, err := decodeChunk(7, old[:flagsEnd-1])
	if err != nil || noFlags.Permanent || noFlags.TierOwn || noFlags.TierBy != "" || noFlags.NTotal != 1 {
		t.Fatalf("chunk without the flags byte: %+v %v", noFlags, err)
	}
	if _, err := decodeChunk(7, old[:len(old)-1]); err == nil {
		t.Error("a chunk cut inside its tier's reason decoded without error")
	}
	for i := range b {
		flipped := bytes.Clone(b)
		flipped[i] ^= 0x20
		if got, err := decodeChunk(7, flipped); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d flipped: %+v %v", i, got, err)
		}
	}
}

// TestDocChecksum: a document record carries its checksum as a JSON member
// that older readers ignore; a flipped byte anywhere is an error, even in
// the member's name, and a record without it reads unchecked.
func TestDocChecksum(t *testing.T) {
	rec := docRecord{Doc: base.Doc{ID: "d1", Text: "Penicillin: anaphylaxis.", Tier: base.T1}, Chunks: []uint64{3, 4}}
	plain, err := json.Marshal(&rec)
	if err != nil {
		t.Fatal(err)
	}
	v := sealDoc(plain)
	var old docRecord
	if err := json.Unmarshal(v, &old); err != nil || !reflect.DeepEqual(old, rec) {
		t.Fatalf("a reader without checksums: %+v %v", old, err)
	}
	var got docRecord
	if err := decodeDoc("d1", v, &got); err != nil || !reflect.DeepEqual(got, rec) {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	got = docRecord{}
	if err := decodeDoc("d1", plain, &got); err != nil || !reflect.DeepEqual(got, rec) {
		t.Fatalf("an old record: %+v %v", got, err)
	}
	for i := range v {
		flipped := bytes.Clone(v)
		flipped[i] ^= 0x01
		if err := decodeDoc("d1", flipped, &got); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d (%q) flipped: %v", i, v[i], err)
		}
	}
}

func TestLastUpsertWinsWithinBatch(t *testing.T) {
	s := openTest(t)
	write(t, s, &Batch{Put: []DocWrite{docWrite("a", base.T1, "one"), docWrite("a", base.T1, "two", "three")}})
	m, _ := s.Meta()
	if m.Docs != 1 || m.Chunks != 2 {
		t.Fatalf("meta: %+v", m)
	}
}

func TestLoadVectors(t *testing.T) {
	s := openTest(t)
	var puts []DocWrite
	for i := 0; i < 300; i++ { // spans two segments
		puts = append(puts, docWrite(string(rune('a'+i%26))+string(rune('0'+i)), base.T4, "t"))
	}
	write(t, s, &Batch{Put: puts})
	write(t, s, &Batch{Delete: []string{puts[0].Doc.ID}})
	slots, vecs, dim, err := s.LoadVectors(nil)
	if err != nil || dim != testDim || len(slots) != 300 || len(vecs) != 300*testDim {
		t.Fatalf("load: %d slots %d floats dim %d err %v", len(slots), len(vecs), dim, err)
	}
	dead := 0
	for i, sl := range slots {
		if sl.Ord != uint64(i) {
			t.Fatalf("slot %d has ord %d", i, sl.Ord)
		}
		if !sl.Alive {
			dead++
		}
		if sl.Time.String() != "2020-01-02" || sl.Patient == 0 {
			t.Fatalf("slot attributes lost: %+v", sl)
		}
	}
	if dead != 1 {
		t.Fatalf("%d dead slots, want 1", dead)
	}
	if id, ok, _ := s.DictID("P1"); !ok || id != slots[1].Patient {
		t.Fatalf("dict id of P1: %d %v", id, ok)
	}
}

func TestReplay(t *testing.T) {
	s := openTest(t)
	write(t, s, &Batch{Put: []DocWrite{docWrite("a", base.T1, "a0"), docWrite("b", base.T1, "b0")}})
	write(t, s, &Batch{Put: []DocWrite{docWrite("a", base.T1, "a1")}})
	write(t, s, &Batch{Delete: []string{"b"}, PruneLogThrough: 1})
	ch, err := s.Replay(1)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Seq != 3 || len(ch.Deleted) != 2 || len(ch.Added) != 1 || ch.Added[0].Chunk.Text != "a1" {
		t.Fatalf("replay from 1: %+v", ch)
	}
	if _, err := s.Replay(0); err != nil {
		t.Fatalf("full replay: %v", err)
	}
	// Sequence 1 was pruned: replaying from the start of the log fails.
	s2 := openTest(t)
	write(t, s2, &Batch{Put: []DocWrite{docWrite("a", base.T1, "a0")}})
	write(t, s2, &Batch{Put: []DocWrite{docWrite("a", base.T1, "a0")}})
	write(t, s2, &Batch{Put: []DocWrite{docWrite("a", base.T1, "a0")}, PruneLogThrough: 2})
	if _, err := s2.Replay(1); err == nil {
		t.Fatal("replay over a pruned log succeeded")
	}
}

func TestEmbedderMismatch(t *testing.T) {
	s := openTest(t)
	write(t, s, &Batch{Put: []DocWrite{docWrite("a", base.T1, "a0")}})
	_, err := s.Write(&Batch{Put: []DocWrite{docWrite("b", base.T1, "b0")}, Embedder: "other", Dim: testDim})
	if !errors.Is(err, ErrEmbedderMismatch) {
		t.Fatalf("want mismatch, got %v", err)
	}
	if m, _ := s.Meta(); m.Docs != 1 {
		t.Fatalf("failed write changed the store: %+v", m)
	}
}

func TestOpenRefusals(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, nil); !errors.Is(err, ErrNotStore) {
		t.Fatalf("non-store dir: %v", err)
	}
	if _, err := Open(filepath.Join(dir, "missing"), &Options{ReadOnly: true}); !errors.Is(err, ErrMissing) {
		t.Fatalf("missing read-only: %v", err)
	}

	kb := filepath.Join(dir, "kb")
	s, err := Open(kb, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A second writer in the same process cannot take the lock.
	start := time.Now()
	if _, err := Open(kb, &Options{LockTimeout: 50 * time.Millisecond}); !errors.Is(err, ErrLocked) {
		t.Fatalf("second writer: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("lock wait did not honour the timeout")
	}
	// Pretend a newer medkb wrote it.
	s.db.Update(func(tx *bolt.Tx) error {
		putU64(tx.Bucket(bucketMeta), keySchema, SchemaVersion+1)
		return nil
	})
	s.Close()
	if _, err := Open(kb, nil); !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("newer schema: %v", err)
	}
}

func TestReadOnlyAndGenerations(t *testing.T) {
	kb := filepath.Join(t.TempDir(), "kb")
	s, err := Open(kb, nil)
	if err != nil {
		t.Fatal(err)
	}
	write(t, s, &Batch{Put: []DocWrite{docWrite("a", base.T1, "a0")}})
	s.Close()
	r, err := Open(kb, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Write(&Batch{}); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("write to read-only: %v", err)
	}
	r.Close()

	g, err := CreateGeneration(kb)
	if err != nil {
		t.Fatal(err)
	}
	if g.Generation() != GenName(2) {
		t.Fatalf("new generation %s", g.Generation())
	}
	g.Close()
	if cur, _ := Current(kb); cur != GenName(1) {
		t.Fatalf("CURRENT moved before SetCurrent: %s", cur)
	}
	if err := SetCurrent(kb, GenName(2)); err != nil {
		t.Fatal(err)
	}
	s, err = Open(kb, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if m, _ := s.Meta(); m.Docs != 0 || s.Generation() != GenName(2) {
		t.Fatalf("opened %s with %d docs", s.Generation(), m.Docs)
	}
}

func TestGraphDedupAndAliases(t *testing.T) {
	s := openTest(t)
	tr := base.Triple{Head: "MI", HeadType: "Disease", Relation: "has_symptom", Tail: "chest pain", TailType: "Symptom"}
	gc, err := s.PutGraph([]base.Entity{{Name: "MI", Type: "Disease", Aliases: []string{"heart attack"}}}, []base.Triple{tr, tr})
	if err != nil || gc.Triples != 1 || gc.Entities != 2 {
		t.Fatalf("first put: %+v %v", gc, err)
	}
	gc, err = s.PutGraph([]base.Entity{{Name: "MI", Type: "Disease", Aliases: []string{"心梗"}}}, []base.Triple{tr})
	if err != nil || gc.Triples != 0 || gc.Entities != 0 {
		t.Fatalf("second put: %+v %v", gc, err)
	}
	ents, triples, err := s.LoadGraph()
	if err != nil || len(ents) != 2 || len(triples) != 1 || len(ents[0].Aliases) != 2 {
		t.Fatalf("load: %+v %+v %v", ents, triples, err)
	}
	if m, _ := s.Meta(); m.Entities != 2 || m.Triples != 1 {
		t.Fatalf("meta: %+v", m)
	}
}

// TestDamagedPageIsAnError points the docs bucket at a page past the end
// of the file, inside bbolt's mapping: reading it faults (SIGBUS), which
// must come back as an ErrCorrupt naming the page, and Check must name the
// bad reference without reading it.
func TestDamagedPageIsAnError(t *testing.T) {
	kb := filepath.Join(t.TempDir(), "kb")
	s, err := Open(kb, nil)
	if err != nil {
		t.Fatal(err)
	}
	var puts []DocWrite
	for i := range 40 { // more than fits inline in the root bucket's page
		puts = append(puts, docWrite(fmt.Sprintf("doc-%02d", i), base.T3, "some text of the document"))
	}
	write(t, s, &Batch{Put: puts})
	path := s.Path()
	s.Close()

	bf, err := openBoltFile(path)
	if err != nil {
		t.Fatal(err)
	}
	root, err := bf.page(bf.meta.root)
	if err != nil {
		t.Fatal(err)
	}
	beyond := uint64(bf.size)/uint64(bf.pageSize) + 100
	bf.Close()
	off := -1
	for i := range int(ne.Uint16(root[10:])) { // the root's leaf elements: the buckets
		e := root[pageHeaderSize+i*elemSize:]
		pos, ksize := int(ne.Uint32(e[4:])), int(ne.Uint32(e[8:]))
		if k := pageHeaderSize + i*elemSize + pos; string(root[k:k+ksize]) == "docs" {
			off = k + ksize // the bucket's header: its root page first
		}
	}
	if off < 0 || ne.Uint64(root[off:]) == 0 {
		t.Fatal("docs bucket not found, or inline")
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	var b [8]byte
	ne.PutUint64(b[:], beyond)
	if _, err := f.WriteAt(b[:], int64(bf.meta.root)*int64(bf.pageSize)+int64(off)); err != nil {
		t.Fatal(err)
	}
	f.Close()

	r, err := Open(kb, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.Docs([]string{"doc-01"})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("page %d: memory fault", beyond)) || !strings.Contains(err.Error(), path) {
		t.Fatalf("reading a page past the end of the file: %v", err)
	}
	problems := r.Check()
	if len(problems) == 0 || !strings.Contains(problems[0].Error(), fmt.Sprintf("bucket docs: reaches page %d, outside pages", beyond)) {
		t.Fatalf("check: %v", problems)
	}
}

// A caller's bug (a document without a resolved tier) still panics: guard
// turns only damage into errors.
func TestGuardKeepsAssertions(t *testing.T) {
	s := openTest(t)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "no resolved tier") {
			t.Fatalf("want the assertion's panic, got %v", r)
		}
	}()
	s.Write(&Batch{Put: []DocWrite{docWrite("a", base.TierNone, "a0")}, Embedder: "test", Dim: testDim})
}
