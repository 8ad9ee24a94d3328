package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"strconv"
	"unsafe"

	"github.com/medkb/medkb/internal/base"
)

// errMalformed is a record that does not decode: cut short, or with bytes
// left over.
var errMalformed = errors.New("malformed")

// Record checksums: a chunk record ends in the CRC-32C of every byte
// before it (4 bytes, little-endian) and sets flagSum in its flags byte; a
// document record's JSON object ends in a "crc32c" member, the CRC-32C of
// the object without it, in 8 hex digits. Both are invisible to a medkb
// that predates them: it ignores trailing chunk bytes, unknown flag bits
// and unknown JSON members, and it may write into a store that has them.
// So a record without a checksum reads unchecked (until a rebuild rewrites
// it), but damage cannot pass for such a record: a damaged chunk record
// no longer parses without its checksum (4 bytes are left over) or still
// has flagSum, and a document record ending in a member of the checksum's
// shape, an 8-hex-digit string (no member of an old record is), is
// checked whatever the member's name has become.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func crc(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// docSumKey opens the checksum member of a document record.
const (
	docSumKey = `,"crc32c":"`
	docSumLen = len(docSumKey) + 8 + len(`"}`)
)

// sealDoc appends the checksum member to the JSON object v.
func sealDoc(v []byte) []byte {
	out := make([]byte, 0, len(v)-1+docSumLen)
	out = append(out, v[:len(v)-1]...)
	out = append(out, docSumKey...)
	return fmt.Appendf(out, "%08x\"}", crc(v))
}

// decodeDoc verifies and decodes the document record v of id.
func decodeDoc(id string, v []byte, rec *docRecord) error {
	body := v
	if n := len(v) - docSumLen; n > 0 && sumShaped(v[n:]) {
		body = append(v[:n:n], '}')
		sum, err := strconv.ParseUint(string(v[n+len(docSumKey):len(v)-2]), 16, 32)
		if err != nil || !bytes.HasPrefix(v[n:], []byte(docSumKey)) || uint32(sum) != crc(body) {
			return corruptf("document %q: checksum mismatch", id)
		}
	}
	if err := json.Unmarshal(body, rec); err != nil {
		return corruptf("document %q: %v", id, err)
	}
	return nil
}

// sumShaped reports whether tail, the last docSumLen bytes of a document
// record, has the punctuation of the checksum member, ,"crc32c":"…"}
// (an old record ends in "chunks":[…]} or "tier_given":true}).
func sumShaped(tail []byte) bool {
	return tail[0] == ',' && tail[1] == '"' && tail[8] == '"' && tail[9] == ':' && tail[10] == '"' &&
		tail[docSumLen-2] == '"' && tail[docSumLen-1] == '}'
}

// encodeChunk writes c (without its ordinal, which is the key) compactly,
// sealed with its checksum. Fields added later go at the end, before the
// checksum, so that older records, which end before them, still decode.
func encodeChunk(c *base.Chunk) []byte {
	n := 38 + len(c.Doc) + len(c.Text) + len(c.TextB) + 4*len(c.VectorB) + len(c.TierBy)
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
	flags := byte(flagSum)
	if c.Permanent {
		flags |= flagPermanent
	}
	if c.TierOwn {
		flags |= flagTierOwn
	}
	b = append(b, flags)
	b = appendString(b, c.TierBy)
	return binary.LittleEndian.AppendUint32(b, crc(b))
}

// The bits of a chunk's flags byte, which follows NTotal. Chunks written
// before the byte existed end without it and read as no flags.
const (
	flagPermanent = 1 << 0 // base.Chunk.Permanent
	flagTierOwn   = 1 << 1 // base.Chunk.TierOwn
	flagSum       = 1 << 2 // the record ends in its checksum
)

// decodeChunk verifies and decodes chunk record b of ordinal ord.
func decodeChunk(ord uint64, b []byte) (*base.Chunk, error) {
	if n := len(b) - 4; n > 0 && binary.LittleEndian.Uint32(b[n:]) == crc(b[:n]) {
		c, flags, err := parseChunk(ord, b[:n])
		if err != nil || flags&flagSum == 0 {
			return nil, corruptf("chunk %d: its checksum matches but it does not decode", ord)
		}
		return c, nil
	}
	c, flags, err := parseChunk(ord, b) // written without a checksum, or damaged
	if err != nil || flags&flagSum != 0 {
		return nil, corruptf("chunk %d: checksum mismatch", ord)
	}
	return c, nil
}

// parseChunk decodes a chunk record without its checksum.
func parseChunk(ord uint64, b []byte) (*base.Chunk, byte, error) {
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
			r.err = errMalformed
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
			r.err = errMalformed
		} else {
			c.Keys = make([]string, n)
			for i := range c.Keys {
				c.Keys[i] = r.string()
			}
		}
	}
	c.NEntity = int(r.uvarint())
	c.NTotal = int(r.uvarint())
	var flags byte
	if len(r.b) > 0 && r.err == nil {
		flags = r.byte()
		c.Permanent = flags&flagPermanent != 0
		c.TierOwn = flags&flagTierOwn != 0
	}
	if len(r.b) > 0 && r.err == nil {
		c.TierBy = r.string() // chunks written before it was recorded end here: ""
	}
	if r.err == nil && len(r.b) > 0 {
		r.err = errMalformed
	}
	return c, flags, r.err
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
		r.err = errMalformed
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.err = errMalformed
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) string() string {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = errMalformed
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
		r.err = errMalformed
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
		return nil, corruptf("replay log entry: %v", r.err)
	}
	return e, nil
}

func appendFloats(b []byte, v []float32) []byte {
	if littleEndian { // v's bytes are already little-endian
		return append(b, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v))...)
	}
	for _, f := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
	}
	return b
}

func decodeU64(b []byte) uint64 { return binary.BigEndian.Uint64(b) }
func decodeU32(b []byte) uint32 { return binary.BigEndian.Uint32(b) }
