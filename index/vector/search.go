package vector

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/viterin/vek/vek32"

	"github.com/medkb/medkb/internal/base"
)

// Hit is one search result: a slot's ordinal and its dot product with the
// query (the cosine similarity, for normalised vectors).
type Hit struct {
	Ord   uint64
	Score float32
}

// Match decides whether an alive slot may be returned. It is called during
// the scan, possibly from several goroutines at once, with a pointer into
// the index that it must neither modify nor keep, while the index is
// read-locked: it must not call the Index. A nil Match accepts every alive
// slot; dead slots are never offered.
type Match func(s *base.Slot) bool

// minParallelFloats is the slab share, in floats, that justifies another
// scan goroutine: 2 MiB, about 1,400 vectors of 384, which one core
// scores in some 40 microseconds, well above the few microseconds it
// takes to start and join a goroutine. BenchmarkSearchSmall measures the
// trade-off.
const minParallelFloats = 1 << 19

// scratch is one worker's reusable state.
type scratch struct {
	scores []float32 // a block's, f32 or int8 (scoreRows)
	passes []bool    // which of them reach the floor
	dots   []int32   // the int8 scan's integer scores, made at its first use
	top    topK
}

// Search is SearchWith with the index's default scan, for callers that
// have no use for an error: an int8 index whose Source fails returns nil.
func (ix *Index) Search(q []float32, k int, match Match) []Hit {
	hits, _ := ix.SearchWith(q, k, match, ScanDefault)
	return hits
}

// SearchWith returns the k alive slots with the highest dot product with
// q that match, best first, ties broken by the smaller ordinal. It
// returns fewer than k hits when fewer slots qualify, and nil when k <=
// 0. ScanF32 is exact; on an index made by NewInt8 it reads every alive
// slot's vector that matches back from the Source, on the calling
// goroutine, and gives the same hits, scores included, as an index made
// by New over the same vectors. ScanInt8 ranks by int8 codes and returns
// the best k of the RescoreDepth(k) best candidates, with exact scores
// (an index made by New quantises its slab at the first such search).
// The error is the Source's. It panics if len(q) != Dim().
func (ix *Index) SearchWith(q []float32, k int, match Match, scan Scan) ([]Hit, error) {
	if len(q) != ix.dim {
		panic(fmt.Sprintf("vector: query of dimension %d for an index of dimension %d", len(q), ix.dim))
	}
	if scan == ScanDefault {
		scan = ix.DefaultScan()
	}
	if k <= 0 {
		return nil, nil
	}
	if scan == ScanInt8 {
		ix.ensureCodes()
	}
	if scan == ScanF32 && ix.source != nil {
		return ix.searchStream(q, k, match)
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.live == 0 {
		return nil, nil
	}
	if scan == ScanInt8 {
		return ix.searchInt8(q, k, match)
	}
	return ix.fanOut(4*ix.dim, k, func(s *scratch, lo, hi int) { ix.scan(s, q, lo, hi, match) }), nil
}

// fanOut scans the slots on workersFor goroutines (from rowBytes, the
// bytes a row scans), the caller being one, each keeping its own k best
// in a scratch, and merges the best k. The slots are cut into
// chunksPerWorker chunks a worker, which the workers claim in turn: a
// worker whose core is busy (with the BM25 arm beside the scan, or
// another process) leaves the chunks it has not reached to the others
// instead of holding up the search with half the slab. Every worker's
// heap keeps the best k of what it scanned, so the merge gives the same
// hits however the chunks fell. Chunks are whole int8 tiles (tileRows
// slots), which the f32 scan does not need but does not mind.
func (ix *Index) fanOut(rowBytes, k int, scan func(s *scratch, lo, hi int)) []Hit {
	n := len(ix.slots)
	w := ix.workersFor(n, rowBytes)
	chunk := max(1, (n+w*chunksPerWorker-1)/(w*chunksPerWorker))
	chunk = (chunk + tileRows - 1) / tileRows * tileRows
	var next atomic.Int64
	work := func(s *scratch) {
		for {
			lo := int(next.Add(int64(chunk))) - chunk
			if lo >= n {
				return
			}
			scan(s, lo, min(lo+chunk, n))
		}
	}
	parts := make([]*scratch, w)
	var wg sync.WaitGroup
	for i := range parts {
		s := ix.getScratch(k)
		parts[i] = s
		if i == len(parts)-1 {
			work(s)
		} else {
			wg.Go(func() { work(s) })
		}
	}
	wg.Wait()
	return ix.merge(parts, k)
}

// chunksPerWorker is how many chunks fanOut cuts a worker's share of the
// slab into: 8 make chunks of 2.4 MB of int8 codes (9.6 MB of floats) for
// two workers over 100k x 384, each some 0.1-0.3 ms of scanning, a fine
// enough grain to even out a late start, and few enough that claiming
// one costs nothing.
const chunksPerWorker = 8

// ensureCodes quantises the float32 slab if it has no int8 codes yet.
func (ix *Index) ensureCodes() {
	ix.mu.RLock()
	have := ix.codes != nil
	ix.mu.RUnlock()
	if have {
		return
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.codes == nil {
		c := &codes{stride: codeStride(ix.dim)}
		c.add(&ix.mem, ix.vecs, ix.dim)
		ix.codes = c
	}
}

// workersFor returns how many goroutines scan a slab of n slots of
// rowBytes bytes each: the workers field if set (tests and benchmarks),
// otherwise one per runtime.GOMAXPROCS(0) but no more than the slab has
// shares of minParallelFloats floats' bytes.
func (ix *Index) workersFor(n, rowBytes int) int {
	if ix.workers > 0 {
		return max(1, min(ix.workers, n))
	}
	return max(1, min(runtime.GOMAXPROCS(0), n*rowBytes/(4*minParallelFloats)))
}

// scan scores slots [lo, hi) block by block into s.top. A slot's
// attributes are read only when its score would be kept.
func (ix *Index) scan(s *scratch, q []float32, lo, hi int, match Match) {
	dim, step := ix.dim, blockRows(ix.dim)
	for start := lo; start < hi; start += step {
		end := min(start+step, hi)
		scores := s.scores[:end-start]
		ix.kernel(scores, ix.vecs[start*dim:end*dim], q)
		ix.offer(s, scores, start, match)
	}
}

// offer offers s.top the scores of the slots from start on. Their test
// against the floor is vek's, 8 at a time: a scalar test of each score
// cost 2.7 ns a slot, a tenth of an int8 query's CPU. A score that passes
// the block's first floor is tested again against the current one; a NaN
// score never passes.
func (ix *Index) offer(s *scratch, scores []float32, start int, match Match) {
	floor := s.top.floor()
	for i, ok := range vek32.GteNumber_Into(s.passes[:len(scores)], scores, floor) {
		if !ok || scores[i] < floor {
			continue
		}
		if ord := uint64(start + i); s.top.admits(scores[i], ord) {
			ix.take(s, ord, scores[i], match)
			floor = s.top.floor()
		}
	}
}

// merge combines the workers' heaps into the final ranking and returns
// the scratch to the pool.
func (ix *Index) merge(parts []*scratch, k int) []Hit {
	total := 0
	for _, s := range parts {
		total += len(s.top.heap)
	}
	out := make([]Hit, 0, total)
	for _, s := range parts {
		out = append(out, s.top.heap...)
		ix.scratch.Put(s)
	}
	sortHits(out)
	return out[:min(k, len(out))]
}

// getScratch returns a worker state sized for this index and k.
func (ix *Index) getScratch(k int) *scratch {
	s, _ := ix.scratch.Get().(*scratch)
	if s == nil {
		n := scoreRows(ix.dim)
		s = &scratch{scores: make([]float32, n), passes: make([]bool, n)}
	}
	s.top.reset(k)
	return s
}

// take pushes the hit of a slot whose score s's top admits, when the
// slot is alive and matches: slots are read only for such scores, and
// not at all when every slot is alive and there is no Match (a store
// with no deletes since its last rebuild). A scan admits a few thousand
// scores on the way to its best hundreds, and reading each one's Slot, at
// random in 4 MB of them for 100k slots, missed the cache every time: 0.2
// ms of an int8 query's 1.8 ms of CPU.
func (ix *Index) take(s *scratch, ord uint64, score float32, match Match) {
	if match == nil && ix.live == len(ix.slots) {
		s.top.push(Hit{Ord: ord, Score: score})
		return
	}
	if slot := &ix.slots[ord]; slot.Alive && (match == nil || match(slot)) {
		s.top.push(Hit{Ord: ord, Score: score})
	}
}
