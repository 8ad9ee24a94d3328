package embed

import "math/bits"

// Feature kinds. Each seeds the hash differently, so a word and a CJK
// character with the same bytes are different features.
const (
	kindWord uint64 = iota + 1
	kindWordPair
	kindTrigram
	kindHan
	kindHanPair
)

// Feature weights of hash-v1, before the sublinear term frequency factor.
// Whole words carry the most signal; character trigrams let inflections
// and compounds meet ("tumor", "tumour", "tumorigenesis"); word pairs add
// phrase matches ("chest pain"). For CJK text, written without spaces,
// character bigrams play the role of words and single characters that of
// trigrams. The English weights were chosen on NFCorpus (see
// TestHashNFCorpus): trigrams at 0.7 rather than 0.3 lift nDCG@10 from
// 0.18 to 0.22, and pairs above 0.3 cost a little on its keyword queries.
const (
	weightWord     = 1.0
	weightWordPair = 0.3
	weightTrigram  = 0.7
	weightHan      = 0.5
	weightHanPair  = 1.0
)

// minTrigramWord is the shortest word, in bytes, that also contributes
// character trigrams; shorter words are covered by their unigram.
const minTrigramWord = 4

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// fnvStart returns the FNV-1a state for a feature of the given kind.
func fnvStart(kind uint64) uint64 {
	return (fnvOffset ^ kind) * fnvPrime
}

// fnvAdd hashes b into the FNV-1a state h.
func fnvAdd(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= fnvPrime
	}
	return h
}

// fnvByte hashes one byte into the FNV-1a state h.
func fnvByte(h uint64, c byte) uint64 {
	return (h ^ uint64(c)) * fnvPrime
}

// mix is the 64-bit finaliser of MurmurHash3: it spreads FNV's weak low
// and high bits over the whole word before bucket and sign are taken.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// pair combines the hashes of two consecutive units (words or CJK
// characters) into the hash of the ordered pair.
func pair(kind, a, b uint64) uint64 {
	return mix(fnvStart(kind) ^ a ^ bits.RotateLeft64(b, 31))
}

// featureCounts accumulates term frequencies of hashed features. It is an
// open-addressing table reused across texts: a slot belongs to the
// current text only if its gen matches, so starting a text is O(1).
type featureCounts struct {
	slots []featureSlot
	used  []int32 // slots filled for the current text, in insertion order
	gen   uint32
}

type featureSlot struct {
	key    uint64
	gen    uint32
	tf     uint32
	weight float32
}

// reset starts a new text.
func (c *featureCounts) reset() {
	c.used = c.used[:0]
	c.gen++
	if c.gen == 0 { // wrapped: stale slots could look current
		clear(c.slots)
		c.gen = 1
	}
	if len(c.slots) == 0 {
		c.slots = make([]featureSlot, 1024)
	}
}

// add counts one occurrence of the feature with hash key.
func (c *featureCounts) add(key uint64, weight float32) {
	if 2*(len(c.used)+1) > len(c.slots) {
		c.grow()
	}
	mask := uint64(len(c.slots) - 1)
	for i := key & mask; ; i = (i + 1) & mask {
		s := &c.slots[i]
		if s.gen != c.gen {
			*s = featureSlot{key: key, gen: c.gen, tf: 1, weight: weight}
			c.used = append(c.used, int32(i))
			return
		}
		if s.key == key {
			s.tf++
			return
		}
	}
}

// grow doubles the table, re-inserting the current text's features.
func (c *featureCounts) grow() {
	old, oldUsed := c.slots, c.used
	c.slots = make([]featureSlot, 2*len(old))
	c.used = make([]int32, 0, 2*cap(oldUsed))
	mask := uint64(len(c.slots) - 1)
	for _, j := range oldUsed {
		s := old[j]
		i := s.key & mask
		for c.slots[i].gen == c.gen {
			i = (i + 1) & mask
		}
		c.slots[i] = s
		c.used = append(c.used, int32(i))
	}
}
