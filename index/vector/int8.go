package vector

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/viterin/vek/vek32"
)

// Scan says how a search scores the slab.
type Scan uint8

const (
	// ScanDefault is the index's own scan: ScanF32 for an index made by
	// New, ScanInt8 for one made by NewInt8.
	ScanDefault Scan = iota
	// ScanF32 scores every slot exactly from the float32 slab.
	ScanF32
	// ScanInt8 scores every slot from its int8 codes, then rescores the
	// best RescoreDepth(k) exactly.
	ScanInt8
)

func (s Scan) String() string {
	switch s {
	case ScanF32:
		return "f32"
	case ScanInt8:
		return "int8"
	}
	return "default"
}

// Source gives an int8 index (NewInt8) the exact vectors to rescore
// with, and to scan for ScanF32. Vectors calls fn for each ordinal of
// ords, which is sorted ascending, with its stored vector; v is valid
// only during the call.
type Source interface {
	Vectors(ords []uint64, fn func(i int, v []float32)) error
}

// rescoreFactor and rescoreMin set the rescoring depth: the best
// max(rescoreFactor*k, k+rescoreMin) int8 candidates are rescored
// exactly (doc.go says why this is enough).
const (
	rescoreFactor = 4
	rescoreMin    = 32
)

// RescoreDepth is how many int8 candidates an int8 search for k hits
// rescores exactly.
func RescoreDepth(k int) int { return max(rescoreFactor*k, k+rescoreMin) }

// NewInt8 returns an empty index for vectors of dim floats that keeps
// only int8 codes in memory (one byte a dimension, and a float32 scale a
// vector) and reads the float32 vectors back from src for rescoring and
// Vector. Appended and loaded vectors are quantised and not kept. It
// panics if dim is not positive or src is nil.
func NewInt8(dim int, src Source) *Index {
	if src == nil {
		panic("vector: NewInt8 with a nil Source")
	}
	ix := New(dim)
	ix.source = src
	ix.codes = &codes{stride: codeStride(dim)}
	return ix
}

// DefaultScan is the scan ScanDefault stands for in this index.
func (ix *Index) DefaultScan() Scan {
	if ix.source != nil {
		return ScanInt8
	}
	return ScanF32
}

// codes are the int8 form of the slab, in tiles of tileRows rows (see
// tileRows for the layout within a tile): row i is row i%tileRows of
// tile i/tileRows, data[t*tileBytes():(t+1)*tileBytes()], and
// approximates vector i divided by scales[i]. The rows of the last tile
// beyond len(scales) are zero codes.
type codes struct {
	stride int // codes a row (codeStride)
	data   []int8
	scales []float32
}

// tileBytes is the size of one tile.
func (c *codes) tileBytes() int { return tileRows * c.stride }

// tiles returns how many tiles n rows take.
func tiles(n int) int { return (n + tileRows - 1) / tileRows }

// add quantises vecs (rows of dim floats) onto the end of c, growing its
// buffers from mem. Many rows (a store's segment at open) are shared out
// among the CPUs, in whole tiles: every open of an int8 store quantises
// all its vectors.
func (c *codes) add(mem *memory, vecs []float32, dim int) {
	n := len(vecs) / dim
	have := len(c.scales)
	c.reserve(mem, have+n)
	c.data = c.data[:tiles(have+n)*c.tileBytes()]
	c.scales = c.scales[:have+n]
	rows := func(lo, hi int) {
		// A tile's rows at a time: quantised row-major into buf, then
		// moved into the tile's columns.
		buf := make([]int8, min(hi-lo, tileRows)*c.stride)
		for lo < hi {
			first := have + lo
			m := min(hi-lo, tileRows-first%tileRows)
			for i := range m {
				c.scales[first+i] = quantize(buf[i*c.stride:(i+1)*c.stride], vecs[(lo+i)*dim:(lo+i+1)*dim])
			}
			c.put(first, buf[:m*c.stride])
			lo += m
		}
	}
	workers := min(runtime.GOMAXPROCS(0), n*dim/parallelQuantize)
	if workers < 2 {
		rows(0, n)
		return
	}
	// Cut at tile boundaries (of the whole slab), so that no two workers
	// write into one tile's cache lines.
	cut := func(w int) int {
		if w == workers {
			return n
		}
		return max(0, (have+w*n/workers)/tileRows*tileRows-have)
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { rows(cut(w), cut(w+1)) })
	}
	wg.Wait()
}

// put writes rows, row-major codes (c.stride a row) of the slab's rows
// first, first+1, ..., which must lie in one tile, into the tile's
// columns. Eight rows by eight dimensions are moved at a time, as eight
// uint64s transposed in registers, a dimension block's eight columns
// filled before the next, rather than each row's codes scattered a byte
// at a time over the whole tile (BenchmarkQuantize100kx384: 48-81 ms on
// two cores, a noisy median of 66, against 43-81 and 56 for the pair
// columns' uint16 stores).
func (c *codes) put(first int, rows []int8) {
	tile := c.data[first/tileRows*c.tileBytes():][:c.tileBytes()]
	r0, n, stride := first%tileRows, len(rows)/c.stride, c.stride
	whole := n &^ 7
	for d := 0; d < stride; d += 8 {
		for i := 0; i < whole; i += 8 {
			var x [8]uint64
			for k := range x {
				x[k] = le.Uint64(i8b(rows[(i+k)*stride+d:]))
			}
			transpose8x8(&x)
			for k := range x {
				le.PutUint64(i8b(tile[(d+k)*columnBytes+r0+i:]), x[k])
			}
		}
		for i := whole; i < n; i++ {
			for k := range 8 {
				tile[(d+k)*columnBytes+r0+i] = rows[i*stride+d+k]
			}
		}
	}
}

// le reads and writes eight codes as one uint64.
var le = binary.LittleEndian

// i8b views codes as bytes.
func i8b(codes []int8) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(codes))), len(codes))
}

// transpose8x8 transposes the 8x8 bytes of x, byte j of x[k] being
// element (k, j): it swaps the off-diagonal 4x4 blocks, then within each
// the 2x2 blocks, then the single bytes.
func transpose8x8(x *[8]uint64) {
	for k := range 4 {
		t := (x[k]>>32 ^ x[k+4]) & 0x00000000ffffffff
		x[k+4] ^= t
		x[k] ^= t << 32
	}
	for _, k := range [4]int{0, 1, 4, 5} {
		t := (x[k]>>16 ^ x[k+2]) & 0x0000ffff0000ffff
		x[k+2] ^= t
		x[k] ^= t << 16
	}
	for k := 0; k < 8; k += 2 {
		t := (x[k]>>8 ^ x[k+1]) & 0x00ff00ff00ff00ff
		x[k+1] ^= t
		x[k] ^= t << 8
	}
}

// parallelQuantize is the number of components below which add quantises
// on the calling goroutine: 256 rows of 384 are well above it.
const parallelQuantize = 32 << 10

// reserve makes room for n rows without another allocation.
func (c *codes) reserve(mem *memory, n int) {
	if need := tiles(n) * c.tileBytes(); need > cap(c.data) {
		grown := mem.bytes(max(need, 2*len(c.data)))
		copy(grown, c.data)
		c.data = grown[:len(c.data)]
	}
	if n > cap(c.scales) {
		c.scales = slices.Grow(c.scales, max(n, 2*len(c.scales))-len(c.scales))
	}
}

// searchInt8 is SearchWith for ScanInt8, called with the read lock held.
func (ix *Index) searchInt8(q []float32, k int, match Match) ([]Hit, error) {
	c := ix.codes
	qc := make([]int16, c.stride)
	qscale := queryCodes(qc, q)
	query := activeColumns(qc)
	depth := min(RescoreDepth(k), len(ix.slots))
	cands := ix.fanOut(c.stride, depth, func(s *scratch, lo, hi int) { ix.scanInt8(s, query, qscale, lo, hi, match) })
	return ix.rescoreBest(cands, k, q, qc, qscale)
}

// rescoreBest returns the best k of cands (approximate scores) by exact
// score, best first, reading as few exact vectors as it can: those prune
// keeps, the k best by approximate score first, then of the others only
// those whose upper bound (errorBound) reaches the worst exact score of
// those k, since k candidates are sure to score at least that. On the
// pipeline's store (k=50) a search reads 64 vectors on average, where the
// one batch prune keeps read a median 80, at about 2.5 microseconds each
// from the store file. cands is reordered.
func (ix *Index) rescoreBest(cands []Hit, k int, q []float32, qc []int16, qscale float32) ([]Hit, error) {
	cands = ix.prune(cands, k, qc, qscale)
	sortHits(cands) // by approximate score
	n := min(k, len(cands))
	if err := ix.rescore(cands[:n], q); err != nil {
		return nil, err
	}
	if len(cands) > k {
		floor := cands[0].Score
		for _, h := range cands[1:k] {
			floor = min(floor, h.Score)
		}
		qc1 := codeL1(qc)
		rest := cands[k:k]
		for _, h := range cands[k:] {
			if h.Score+ix.errorBound(h.Ord, qc1, qscale) >= floor {
				rest = append(rest, h)
			}
		}
		if len(rest) > 0 {
			if err := ix.rescore(rest, q); err != nil {
				return nil, err
			}
		}
		cands = cands[:k+len(rest)]
	}
	sortHits(cands)
	return cands[:n], nil
}

// scanTiles is how many tiles scanInt8 scores at a time: 4 KiB of
// int32 sums at most, beside a few hundred KiB of codes.
const scanTiles = 8

// scanInt8 is scan for the int8 codes: approximate scores, scaled back
// to cosines, into s.top. fanOut's chunks are whole tiles, but for the
// slab's last; a range that starts inside a tile costs that tile's
// scoring twice, not a wrong score.
func (ix *Index) scanInt8(s *scratch, query []int32, qscale float32, lo, hi int, match Match) {
	c := ix.codes
	tb := c.tileBytes()
	if len(s.dots) < scanTiles*tileRows {
		s.dots = make([]int32, scanTiles*tileRows)
	}
	for start := lo; start < hi; {
		first := start / tileRows
		end := min((first+scanTiles)*tileRows, hi)
		last := tiles(end)
		dots := s.dots[:(last-first)*tileRows]
		ix.int8k(dots, c.data[first*tb:last*tb], tb, query)
		scores := vek32.FromInt32_Into(s.scores, dots[start-first*tileRows:][:end-start])
		vek32.Mul_Inplace(scores, c.scales[start:end])
		vek32.MulNumber_Inplace(scores, qscale) // float32(dot) * scale * qscale, rounded in that order
		ix.offer(s, scores, start, match)
		start = end
	}
}

// prune drops the candidates that cannot be among the best k whatever
// their exact scores, so that rescoring reads fewer vectors (from the
// store file, for an int8 index). A candidate's exact score lies within
// errorBound of its approximate one; one whose upper bound is below the
// k-th best lower bound has k candidates surely above it. The k best of
// what is left are therefore the k best of all the candidates, ties
// included.
func (ix *Index) prune(cands []Hit, k int, qc []int16, qscale float32) []Hit {
	if len(cands) <= k {
		return cands
	}
	qc1 := codeL1(qc)
	lows := make([]float32, len(cands))
	for i, h := range cands {
		lows[i] = h.Score - ix.errorBound(h.Ord, qc1, qscale)
	}
	slices.Sort(lows)
	kth := lows[len(lows)-k]
	kept := cands[:0]
	for _, h := range cands {
		if h.Score+ix.errorBound(h.Ord, qc1, qscale) >= kth {
			kept = append(kept, h)
		}
	}
	return kept
}

// codeL1 is the L1 norm of the query's codes, for errorBound.
func codeL1(qc []int16) int64 {
	var n int64
	for _, v := range qc {
		n += int64(max(v, -v))
	}
	return n
}

// errorBound bounds |exact - approximate| for the slot at ord. With v =
// s*c + e, |e_j| <= s/2 (rounding to the code grid), and likewise q =
// sq*qc + f, |f_j| <= sq/2, v.q - s*sq*(c.qc) = sq*(e.qc) + v.f, whose
// terms are at most s/2*sq*|qc|_1 and sq/2*|v|_1 <= sq/2*sqrt(dim) (v has
// unit length). A relative and an absolute margin cover float rounding,
// in the approximate score and in the exact dot product.
func (ix *Index) errorBound(ord uint64, qc1 int64, qscale float32) float32 {
	s := ix.codes.scales[ord]
	b := s/2*qscale*float32(qc1) + qscale/2*float32(math.Sqrt(float64(ix.dim)))
	return b*1.001 + 1e-4
}

// rescore replaces the approximate scores of hits by exact ones, from the
// float32 slab or else from the Source.
func (ix *Index) rescore(hits []Hit, q []float32) error {
	if ix.source == nil {
		for i := range hits {
			lo := int(hits[i].Ord) * ix.dim
			hits[i].Score = vek32.Dot(ix.vecs[lo:lo+ix.dim], q)
		}
		return nil
	}
	slices.SortFunc(hits, func(a, b Hit) int { return int(a.Ord) - int(b.Ord) })
	ords := make([]uint64, len(hits))
	for i, h := range hits {
		ords[i] = h.Ord
	}
	return ix.readSource(ords, "rescore", func(i int, v []float32) {
		hits[i].Score = vek32.Dot(v[:ix.dim], q)
	})
}

// readSource calls fn with the Source's vector of each of ords, as
// Source.Vectors, and fails when the Source gave fewer than asked: what
// they were to be read for (purpose) would silently lack some.
func (ix *Index) readSource(ords []uint64, purpose string, fn func(i int, v []float32)) error {
	seen := 0
	err := ix.source.Vectors(ords, func(i int, v []float32) {
		fn(i, v)
		seen++
	})
	if err == nil && seen != len(ords) {
		err = fmt.Errorf("medkb: the vector source gave %d of %d vectors to %s", seen, len(ords), purpose)
	}
	return err
}

// sortHits orders hits best first, ties to the smaller ordinal.
func sortHits(hits []Hit) {
	slices.SortFunc(hits, func(a, b Hit) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
}

// streamBlock is how many ordinals searchStream asks of the Source at a
// time: few enough that a block's ordinals and scores stay small (48
// KiB), many enough that a call's own cost (the store opens a read
// transaction for each) is nothing beside its 4096 vector reads.
const streamBlock = 4096

// searchStream is SearchWith for ScanF32 on an index made by NewInt8: an
// exact scan of every slot, reading the float32 vectors back from the
// Source, streamBlock ordinals at a time, ascending. Only alive slots that match are read, tested in the
// order scan tests them (Alive, then Match). Each row is scored by the
// f32 scan's kernel, which scores a row the same bits alone as in a
// block (TestF32KernelRowAlone), and kept in the same bounded top-k, so
// the hits are those of an f32 index over the same vectors, score for
// score. It runs on the calling goroutine: it is bound by reading the
// vectors, not by scoring them. It holds the read lock only to choose
// each block's slots, not while the Source reads (0.2 s at 100k), so
// writes and the searches queued behind a waiting writer go on; it scans
// the slots there were when it began, and a slot killed after its block
// was chosen can still be a hit (the planner skips deleted chunks).
func (ix *Index) searchStream(q []float32, k int, match Match) ([]Hit, error) {
	ix.mu.RLock()
	n, live := len(ix.slots), ix.live
	ix.mu.RUnlock()
	if live == 0 {
		return nil, nil
	}
	dim := ix.dim
	top := topK{k: k, heap: make([]Hit, 0, min(k, live))} // non-nil, as fanOut's
	ords := make([]uint64, 0, min(streamBlock, n))
	scores := make([]float32, min(streamBlock, n))
	for lo := 0; lo < n; {
		ords = ords[:0]
		ix.mu.RLock()
		for ; lo < n && len(ords) < streamBlock; lo++ {
			if slot := &ix.slots[lo]; slot.Alive && (match == nil || match(slot)) {
				ords = append(ords, uint64(lo))
			}
		}
		ix.mu.RUnlock()
		if len(ords) == 0 {
			continue
		}
		err := ix.readSource(ords, "scan", func(i int, v []float32) {
			ix.kernel(scores[i:i+1], v[:dim], q)
		})
		if err != nil {
			return nil, err
		}
		for i, ord := range ords {
			top.push(Hit{Ord: ord, Score: scores[i]})
		}
	}
	sortHits(top.heap)
	return top.heap, nil
}
