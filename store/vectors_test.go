package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// TestEachVectorsAndVectorsAt checks the int8 index's two reads against
// LoadVectors: the same slots and vectors, segment by segment and by
// ordinal.
func TestEachVectorsAndVectorsAt(t *testing.T) {
	s := openTest(t)
	var puts []DocWrite
	for i := range 600 { // spans three segments
		puts = append(puts, docWrite(string(rune('a'+i%26))+string(rune('0'+i)), base.T4, "t"))
	}
	write(t, s, &Batch{Put: puts})
	slots, vecs, dim, err := s.LoadVectors(nil)
	if err != nil {
		t.Fatal(err)
	}
	var gotSlots []base.Slot
	var gotVecs []float32
	total := -1
	err = s.EachVectors(func(n, d int) {
		if d != dim {
			t.Errorf("start: dim %d, want %d", d, dim)
		}
		total = n
	}, func(sl []base.Slot, v []float32) error {
		if len(sl) > SegmentSlots || len(v) != len(sl)*dim {
			t.Errorf("segment of %d slots and %d floats", len(sl), len(v))
		}
		gotSlots = append(gotSlots, sl...)
		gotVecs = append(gotVecs, v...)
		return nil
	})
	if err != nil || total != 600 || !slices.Equal(gotSlots, slots) || !slices.Equal(gotVecs, vecs) {
		t.Fatalf("EachVectors: %d slots of %d, err %v", len(gotSlots), total, err)
	}
	stop := errors.New("stop")
	if err := s.EachVectors(func(int, int) {}, func([]base.Slot, []float32) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("EachVectors does not pass fn's error on: %v", err)
	}

	ords := []uint64{0, 1, 255, 256, 300, 599}
	seen := 0
	err = s.VectorsAt(ords, func(i int, v []float32) {
		o := int(ords[i])
		if !slices.Equal(v, vecs[o*dim:(o+1)*dim]) {
			t.Errorf("VectorsAt: ordinal %d differs", o)
		}
		seen++
	})
	if err != nil || seen != len(ords) {
		t.Fatalf("VectorsAt: %d of %d, err %v", seen, len(ords), err)
	}
	if err := s.VectorsAt([]uint64{600}, func(int, []float32) {}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("VectorsAt past the slab: %v", err)
	}

	// A write moves segments: the locations EachVectors noted must not
	// be used for it.
	var more []DocWrite
	for i := range 300 {
		w := docWrite(fmt.Sprintf("z%d", i), base.T1, "u", "v")
		w.Vectors[0], w.Vectors[1] = 0.6, 0.8 // unit, and not the vectors of the first 600
		w.Vectors[testDim+1], w.Vectors[testDim+2] = 0.8, 0.6
		more = append(more, w)
	}
	write(t, s, &Batch{Put: more, Delete: []string{puts[3].Doc.ID, puts[300].Doc.ID}})
	_, vecs, _, err = s.LoadVectors(nil)
	if err != nil {
		t.Fatal(err)
	}
	ords = []uint64{3, 255, 300, 599, 600, 700, 1199}
	err = s.VectorsAt(ords, func(i int, v []float32) {
		o := int(ords[i])
		if !slices.Equal(v, vecs[o*dim:(o+1)*dim]) {
			t.Errorf("VectorsAt after a write: ordinal %d differs", o)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSetQuantize(t *testing.T) {
	s := openTest(t)
	for _, q := range []string{QuantizeInt8, QuantizeNone} {
		if err := s.SetQuantize(q); err != nil {
			t.Fatal(err)
		}
		if m, _ := s.Meta(); m.Quantize != q {
			t.Errorf("Meta.Quantize = %q, want %q", m.Quantize, q)
		}
	}
	if err := s.SetQuantize("int4"); err == nil {
		t.Error("SetQuantize(int4) accepted")
	}
}

// TestDecodeFloats checks the copy decodeFloats makes on this machine
// against decoding one little-endian float at a time, and appendFloats
// against it.
func TestDecodeFloats(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]byte, 4*1000+3) // a longer source is read only as far as dst
	for i := range src {
		src[i] = byte(rng.Uint32())
	}
	dst := make([]float32, 1000)
	decodeFloats(dst, src)
	for i, got := range dst {
		if want := binary.LittleEndian.Uint32(src[4*i:]); math.Float32bits(got) != want {
			t.Fatalf("float %d: bits %#x, want %#x", i, math.Float32bits(got), want)
		}
	}
	if enc := appendFloats([]byte{7}, dst); enc[0] != 7 || !slices.Equal(enc[1:], src[:4*len(dst)]) {
		t.Errorf("appendFloats does not give back the bytes decodeFloats read")
	}
}
