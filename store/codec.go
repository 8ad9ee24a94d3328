package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/medkb/medkb/internal/base"
)

// errCorrupt is wrapped by every decoding failure.
var errCorrupt = errors.New("medkb: corrupt record")

// encodeChunk writes c (without its ordinal, which is the key) compactly.
// Fields added later go at the end, so that older records, which end
// before them, still decode.
func encodeChunk(c *base.Chunk) []byte {
	n := 34 + len(c.Doc) + len(c.Text) + len(c.TextB) + 4*len(c.VectorB) + len(c.TierBy)
	for _, k := range c.Keys {
		n += len(k) + 2
	}
	b := make([]byte, 0, n)
	b = appendString(b, c.Doc)
	b = binary.AppendUvarint(b, uint64(c.Index))
	b = append(b, byte(c.Tier))
	b = appendString(b, c.Text)
	b = binary.AppendUvarint(b, uint64(c.TokensA))
	b = appendString(b, c.TextB)
	b = binary.AppendUvarint(b, uint64(c.TokensB))
	b = binary.AppendUvarint(b, uint64(len(c.VectorB)))
	for _, f := range c.VectorB {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	b = binary.AppendUvarint(b, uint64(len(c.Keys)))
	for _, k := range c.Keys {
		b = appendString(b, k)
	}
	b = binary.AppendUvarint(b, uint64(c.NEntity))
	b = binary.AppendUvarint(b, uint64(c.NTotal))
	var flags byte
	if c.Permanent {
		flags |= flagPermanent
	}
	if c.TierOwn {
		flags |= flagTierOwn
	}
	b = append(b, flags)
	return appendString(b, c.TierBy)
}

// The bits of a chunk's flags byte, which follows NTotal. Chunks written
// before the byte existed end without it and read as no flags.
const (
	flagPermanent = 1 << 0 // base.Chunk.Permanent
	flagTierOwn   = 1 << 1 // base.Chunk.TierOwn
)

func decodeChunk(ord uint64, b []byte) (*base.Chunk, error) {
	r := reader{b: b}
	c := &base.Chunk{Ord: ord}
	c.Doc = r.string()
	c.Index = int(r.uvarint())
	c.Tier = base.Tier(r.byte())
	c.Text = r.string()
	c.TokensA = int(r.uvarint())
	c.TextB = r.string()
	c.TokensB = int(r.uvarint())
	if n := r.uvarint(); n > 0 && r.err == nil {
		if n > uint64(len(r.b))/4 {
			r.err = errCorrupt
		} else {
			c.VectorB = make([]float32, n)
			for i := range c.VectorB {
				c.VectorB[i] = math.Float32frombits(binary.LittleEndian.Uint32(r.b[4*i:]))
			}
			r.b = r.b[4*n:]
		}
	}
	if n := r.uvarint(); n > 0 && r.err == nil {
		if n > uint64(len(r.b)) {
			r.err = errCorrupt
		} else {
			c.Keys = make([]string, n)
			for i := range c.Keys {
				c.Keys[i] = r.string()
			}
		}
	}
	c.NEntity = int(r.uvarint())
	c.NTotal = int(r.uvarint())
	if len(r.b) > 0 && r.err == nil {
		flags := r.byte()
		c.Permanent = flags&flagPermanent != 0
		c.TierOwn = flags&flagTierOwn != 0
	}
	if len(r.b) > 0 && r.err == nil {
		c.TierBy = r.string() // chunks written before it was recorded end here: ""
	}
	if r.err != nil {
		return nil, fmt.Errorf("chunk %d: %w", ord, r.err)
	}
	return c, nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// reader decodes sequentially, remembering the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errCorrupt
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.err = errCorrupt
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) string() string {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = errCorrupt
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// putSlot encodes s into the fixed-size header at b[:slotHeaderSize].
func putSlot(b []byte, s *base.Slot) {
	le := binary.LittleEndian
	le.PutUint32(b[0:], s.DocNum)
	b[4] = byte(s.Tier)
	b[5] = 0
	if s.Alive {
		b[5] = 1
	}
	b[6], b[7] = 0, 0
	le.PutUint32(b[8:], uint32(s.Time))
	le.PutUint32(b[12:], s.Patient)
	le.PutUint32(b[16:], s.Type)
	le.PutUint32(b[20:], s.Source)
	le.PutUint32(b[24:], s.Evidence)
	le.PutUint32(b[28:], s.Lang)
}

func getSlot(b []byte, ord uint64) base.Slot {
	le := binary.LittleEndian
	return base.Slot{
		Ord:      ord,
		DocNum:   le.Uint32(b[0:]),
		Tier:     base.Tier(b[4]),
		Alive:    b[5] == 1,
		Time:     base.Day(int32(le.Uint32(b[8:]))),
		Patient:  le.Uint32(b[12:]),
		Type:     le.Uint32(b[16:]),
		Source:   le.Uint32(b[20:]),
		Evidence: le.Uint32(b[24:]),
		Lang:     le.Uint32(b[28:]),
	}
}

// logEntry is what one write changed, for replay into derived indexes.
type logEntry struct {
	Deleted []uint64
	Added   []uint64
}

func encodeLog(e *logEntry) []byte {
	b := make([]byte, 0, 4+2*(len(e.Deleted)+len(e.Added)))
	b = appendOrds(b, e.Deleted)
	return appendOrds(b, e.Added)
}

// appendOrds writes a count and then ascending ordinals as deltas.
func appendOrds(b []byte, ords []uint64) []byte {
	b = binary.AppendUvarint(b, uint64(len(ords)))
	var prev uint64
	for _, o := range ords {
		b = binary.AppendUvarint(b, o-prev)
		prev = o
	}
	return b
}

func readOrds(r *reader) []uint64 {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = errCorrupt
		return nil
	}
	ords := make([]uint64, n)
	var prev uint64
	for i := range ords {
		prev += r.uvarint()
		ords[i] = prev
	}
	return ords
}

func decodeLog(b []byte) (*logEntry, error) {
	r := reader{b: b}
	e := &logEntry{Deleted: readOrds(&r), Added: readOrds(&r)}
	if r.err != nil {
		return nil, r.err
	}
	return e, nil
}

func appendFloats(b []byte, v []float32) []byte {
	for _, f := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return b
}

func decodeU64(b []byte) uint64 { return binary.BigEndian.Uint64(b) }
func decodeU32(b []byte) uint32 { return binary.BigEndian.Uint32(b) }
