package vector

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// TestInt8KernelsAgree checks the SIMD int8 kernel against the pure-Go
// twin and a 64-bit reference over row-major codes, on random codes laid
// out in tiles by codes.put, extreme ones included, and on queries from
// dense to empty, with odd and even counts of active dimensions (an odd
// count's last entry pairs a column with itself): integer sums must
// agree exactly.
func TestInt8KernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	for _, stride := range []int{16, 48, 384, 400, 1024} { // codeStride: multiples of 16
		for _, rows := range []int{0, 1, 63, 64, tileRows - 1, tileRows, tileRows + 1, 3*tileRows + 10} {
			c := &codes{stride: stride, data: make([]int8, tiles(rows)*tileRows*stride)}
			flat := make([]int8, rows*stride)
			q := make([]int16, stride)
			top := queryMax(stride)
			for trial := range 8 {
				for i := range flat {
					flat[i] = int8(rng.IntN(2*codeMax+1) - codeMax)
					if trial == 1 { // extremes: the largest sums
						flat[i] = codeMax
					}
				}
				for i := range rows {
					c.put(i, flat[i*stride:(i+1)*stride])
				}
				var on []int // for trials 5 to 7: the active dimensions
				switch trial {
				case 5: // an odd count
					on = rng.Perm(stride)[:2*rng.IntN((stride+1)/2)+1]
				case 6: // an even count
					on = rng.Perm(stride)[:2*(1+rng.IntN(stride/2))]
				case 7: // the last column alone
					on = []int{stride - 1}
				}
				for j := range q {
					switch trial {
					case 1:
						q[j] = int16(top)
					case 2:
						q[j] = int16(-top)
					case 3: // sparse, as the built-in embedder's queries
						q[j] = 0
						if rng.IntN(12) == 0 {
							q[j] = int16(rng.IntN(2*top+1) - top)
						}
					case 4:
						q[j] = 0
					case 5, 6, 7:
						q[j] = 0
						if slices.Contains(on, j) {
							q[j] = int16((1 + rng.IntN(top)) * (1 - 2*rng.IntN(2)))
						}
					default:
						q[j] = int16(rng.IntN(2*top+1) - top)
					}
				}
				want := make([]int32, tiles(rows)*tileRows)
				for i := range rows {
					var s int64
					for j := range stride {
						s += int64(flat[i*stride+j]) * int64(q[j])
					}
					want[i] = int32(s)
				}
				query := activeColumns(q)
				nonzero := 0
				for _, v := range q {
					if v != 0 {
						nonzero++
					}
				}
				label := fmt.Sprintf("stride=%d rows=%d trial=%d active=%d", stride, rows, trial, nonzero)
				if len(query) != 3*((nonzero+1)/2) {
					t.Fatalf("%s: %d int32s of query", label, len(query))
				}
				got := make([]int32, len(want))
				dotsInt8Go(got, c.data, c.tileBytes(), query)
				if !slices.Equal(got, want) {
					t.Fatalf("%s: go kernel %v, want %v", label, got, want)
				}
				for i := range got {
					got[i] = int32(rng.Uint32()) // the kernels must overwrite, not add
				}
				int8Scan(got, c.data, c.tileBytes(), query)
				if !slices.Equal(got, want) {
					t.Fatalf("%s: %s kernel %v, want %v", label, int8KernelName, got, want)
				}
			}
		}
	}
}

func TestQuantizeError(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 21))
	for _, dim := range []int{1, 5, 384} {
		vecs := randomUnit(rng, 50, dim)
		c := make([]int8, codeStride(dim))
		qc := make([]int16, codeStride(dim))
		for i := range 50 {
			v := vecs[i*dim : (i+1)*dim]
			s := quantize(c, v)
			qs := queryCodes(qc, v)
			for j, f := range v {
				if d := abs32(f - s*float32(c[j])); d > s/2+1e-7*abs32(f) {
					t.Fatalf("dim %d: component %v coded %d at scale %v, error %v", dim, f, c[j], s, d)
				}
				if d := abs32(f - qs*float32(qc[j])); d > qs/2+1e-7*abs32(f) {
					t.Fatalf("dim %d: query component %.9g coded %d at scale %.9g, error %.9g", dim, f, qc[j], qs, d)
				}
			}
			for j := dim; j < len(c); j++ {
				if c[j] != 0 || qc[j] != 0 {
					t.Fatalf("dim %d: padding code %d or %d", dim, c[j], qc[j])
				}
			}
		}
	}
	if s := quantize(make([]int8, 16), make([]float32, 3)); s != 0 {
		t.Errorf("zero vector: scale %v", s)
	}
}

// sliceSource serves exact vectors from a float32 slab, as a store would,
// and counts the vectors it gave (safe beside concurrent searches).
type sliceSource struct {
	dim   int
	vecs  []float32
	err   error
	reads atomic.Int64
}

func (s *sliceSource) Vectors(ords []uint64, fn func(int, []float32)) error {
	if s.err != nil {
		return s.err
	}
	for i, o := range ords {
		if i > 0 && ords[i-1] >= o {
			return fmt.Errorf("ordinals not ascending: %v", ords)
		}
		s.reads.Add(1)
		fn(i, s.vecs[int(o)*s.dim:int(o+1)*s.dim])
	}
	return nil
}

// recallAt is the share of want's ordinals that got has.
func recallAt(got, want []Hit) float64 {
	if len(want) == 0 {
		return 1
	}
	have := map[uint64]bool{}
	for _, h := range got {
		have[h.Ord] = true
	}
	n := 0
	for _, h := range want {
		if have[h.Ord] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

// TestSearchInt8 checks int8 search against the exact float64 reference,
// from an f32 index (quantised at first use) and from an int8 index with
// a Source: same ordinals in both, exact scores, high recall.
func TestSearchInt8(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	filters := map[string]Match{
		"all":    nil,
		"T1orT2": func(s *base.Slot) bool { return s.Tier <= base.T2 },
		"none":   func(*base.Slot) bool { return false },
	}
	for _, n := range []int{1, 7, 300, 3000} {
		for _, dim := range []int{3, 17, 384} {
			f32 := testSlab(rng, n, dim)
			src := &sliceSource{dim: dim, vecs: f32.vecs}
			q8 := NewInt8(dim, src)
			if err := q8.Load(slices.Clone(f32.slots), slices.Clone(f32.vecs)); err != nil {
				t.Fatal(err)
			}
			var sum, count float64
			for range 5 {
				q := randomUnit(rng, 1, dim)
				for _, k := range []int{1, 10, n + 3} {
					for fname, match := range filters {
						label := fmt.Sprintf("n=%d dim=%d k=%d filter=%s", n, dim, k, fname)
						want := reference(f32, q, k, match)
						a, err := f32.SearchWith(q, k, match, ScanInt8)
						if err != nil {
							t.Fatal(err)
						}
						for _, workers := range []int{1, 3} {
							q8.workers, q8.int8k = workers, dotsInt8Go
							b, err := q8.SearchWith(q, k, match, ScanDefault)
							if err != nil {
								t.Fatal(err)
							}
							if len(a) != len(b) || len(a) != len(want) {
								t.Fatalf("%s: %d and %d hits, want %d", label, len(a), len(b), len(want))
							}
							for i := range a {
								if a[i].Ord != b[i].Ord {
									t.Fatalf("%s workers=%d: f32 index gives %v, int8 index %v", label, workers, a, b)
								}
							}
						}
						for _, h := range a {
							if d := float64(h.Score) - exactScore(f32, q, h.Ord); d > 1e-5 || d < -1e-5 {
								t.Fatalf("%s: hit %v not rescored exactly", label, h)
							}
						}
						if k == 10 && dim == 384 {
							sum += recallAt(a, want)
							count++
						}
					}
				}
			}
			if count > 0 && sum/count < 0.99 {
				t.Errorf("n=%d dim=%d: mean recall@10 %.3f", n, dim, sum/count)
			}
		}
	}
}

func TestInt8IndexSlab(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 21))
	const dim = 24
	all := randomUnit(rng, 600, dim)
	src := &sliceSource{dim: dim, vecs: all}
	ix := NewInt8(dim, src)
	ix.Reserve(600)
	for first := 0; first < 600; first += 200 {
		if err := ix.Append(slotsFrom(uint64(first), 200), all[first*dim:(first+200)*dim]); err != nil {
			t.Fatal(err)
		}
	}
	if ix.vecs != nil || len(ix.codes.scales) != 600 {
		t.Fatalf("int8 index kept %d floats and %d code rows", len(ix.vecs), len(ix.codes.scales))
	}
	if v := ix.Vector(7); !slices.Equal(v, all[7*dim:8*dim]) {
		t.Errorf("Vector(7) = %v", v)
	}
	src.reads.Store(0)
	ords := []uint64{9, 3, 600, 9, 0}
	vs, err := ix.Vectors(ords)
	if err != nil || len(vs) != len(ords) || src.reads.Load() != 3 {
		t.Fatalf("Vectors(%v): %d vectors, %d reads, err %v", ords, len(vs), src.reads.Load(), err)
	}
	for i, o := range ords {
		if o >= 600 && vs[i] != nil || o < 600 && !slices.Equal(vs[i], all[int(o)*dim:int(o+1)*dim]) {
			t.Errorf("Vectors: ordinal %d gave %v", o, vs[i])
		}
	}
	q := all[42*dim : 43*dim]
	if hits := ix.Search(q, 3, nil); len(hits) != 3 || hits[0].Ord != 42 {
		t.Errorf("own vector is not the best hit: %v", hits)
	}
	// ScanF32 reads every vector back from the Source and scores it as
	// an f32 index over the same vectors does (TestScanF32OnInt8).
	f32 := New(dim)
	if err := f32.Load(slotsFrom(0, 600), slices.Clone(all)); err != nil {
		t.Fatal(err)
	}
	src.reads.Store(0)
	got, err := ix.SearchWith(q, 3, nil, ScanF32)
	if want, _ := f32.SearchWith(q, 3, nil, ScanF32); err != nil || !sameBits(got, want) || src.reads.Load() != 600 {
		t.Errorf("scan=f32 on an int8 index: %v, err %v, %d vectors read; the f32 index gives %v", got, err, src.reads.Load(), want)
	}
	src.reads.Store(0)
	ix.Search(q, 10, nil)
	if n := src.reads.Load(); n < 10 || n > int64(RescoreDepth(10)) {
		t.Errorf("rescored %d vectors, want 10 to %d", n, RescoreDepth(10))
	}
	boom := errors.New("boom")
	src.err = boom
	for _, scan := range []Scan{ScanInt8, ScanF32} {
		if _, err := ix.SearchWith(q, 3, nil, scan); !errors.Is(err, boom) {
			t.Errorf("failing source, scan=%v: err = %v", scan, err)
		}
	}
	if ix.Search(q, 3, nil) != nil || ix.Vector(1) != nil {
		t.Error("failing source: Search or Vector returned something")
	}
}

// TestInt8CodesFollowAppends checks that an f32 index quantised by an
// int8 search keeps its codes in step with later appends and loads.
func TestInt8CodesFollowAppends(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 21))
	const dim = 16
	ix := New(dim)
	if err := ix.Append(slotsFrom(0, 100), randomUnit(rng, 100, dim)); err != nil {
		t.Fatal(err)
	}
	q := randomUnit(rng, 1, dim)
	if _, err := ix.SearchWith(q, 5, nil, ScanInt8); err != nil {
		t.Fatal(err)
	}
	extra := randomUnit(rng, 50, dim)
	if err := ix.Append(slotsFrom(100, 50), extra); err != nil {
		t.Fatal(err)
	}
	hits, err := ix.SearchWith(extra[:dim], 1, nil, ScanInt8)
	if err != nil || len(hits) != 1 || hits[0].Ord != 100 {
		t.Fatalf("after append: %v, %v", hits, err)
	}
	if err := ix.Load(slotsFrom(0, 2), randomUnit(rng, 2, dim)); err != nil {
		t.Fatal(err)
	}
	if ix.codes != nil {
		t.Fatal("Load kept codes of the old slab")
	}
	if hits, _ := ix.SearchWith(q, 5, nil, ScanInt8); len(hits) != 2 {
		t.Errorf("after Load: %v", hits)
	}
}

// TestPruneKeepsTopK checks that pruning the int8 candidates before
// rescoring (prune) gives the k best of all RescoreDepth(k) candidates
// rescored, score for score: on dense and sparse unit vectors (a sparse
// one has a coarse code grid), with duplicate vectors for exact ties,
// across dimensions and k.
func TestPruneKeepsTopK(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 13))
	pruned := 0
	for _, dim := range []int{8, 24, 384} {
		for _, sparse := range []bool{false, true} {
			const n = 3000
			vecs := randomUnit(rng, n, dim)
			if sparse {
				for i := range n {
					v := vecs[i*dim : (i+1)*dim]
					for j := range v {
						if rng.IntN(4) != 0 {
							v[j] = 0
						}
					}
					if !Normalize(v) {
						v[0] = 1
					}
				}
			}
			copy(vecs[7*dim:8*dim], vecs[3*dim:4*dim]) // a tie
			ix := New(dim)
			if err := ix.Append(slotsFrom(0, n), vecs); err != nil {
				t.Fatal(err)
			}
			ix.ensureCodes()
			for qi := range 40 {
				q := vecs[(qi*37%n)*dim:][:dim]
				if qi%2 == 1 {
					q = randomUnit(rng, 1, dim)
				}
				for _, k := range []int{1, 10, 50} {
					got, err := ix.SearchWith(q, k, nil, ScanInt8)
					if err != nil {
						t.Fatal(err)
					}
					qc := make([]int16, ix.codes.stride)
					qscale := queryCodes(qc, q)
					all := ix.fanOut(ix.codes.stride, RescoreDepth(k), func(s *scratch, lo, hi int) { ix.scanInt8(s, activeColumns(qc), qscale, lo, hi, nil) })
					pruned += len(all) - len(ix.prune(slices.Clone(all), k, qc, qscale))
					if err := ix.rescore(all, q); err != nil {
						t.Fatal(err)
					}
					sortHits(all)
					if want := all[:min(k, len(all))]; !slices.Equal(got, want) {
						t.Fatalf("dim %d sparse %v k %d: pruned %v, all rescored %v", dim, sparse, k, got, want)
					}
				}
			}
		}
	}
	t.Logf("pruned %d candidates", pruned)
}

// TestRoundHalfAway holds roundHalfAway to math.Round on the values a
// code can take, halves and the float32 neighbours of halves included.
func TestRoundHalfAway(t *testing.T) {
	check := func(f float32) {
		if got, want := roundHalfAway(f), int32(math.Round(float64(f))); got != want {
			t.Fatalf("roundHalfAway(%v) = %d, want %d", f, got, want)
		}
	}
	for i := -2 * 32767; i <= 2*32767; i++ {
		half := float32(i) / 2
		check(half)
		check(math.Nextafter32(half, float32(math.Inf(1))))
		check(math.Nextafter32(half, float32(math.Inf(-1))))
	}
	check(float32(math.Copysign(0, -1)))
	rng := rand.New(rand.NewPCG(7, 7))
	for range 1_000_000 {
		check((rng.Float32()*2 - 1) * 32767)
	}
}

// TestPeakAbs holds peakAbs to a plain scan, signed zeros, lengths that
// are not a multiple of the SIMD width and all-negative rows included.
func TestPeakAbs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for n := range 70 {
		for _, shift := range []float32{0, -3, 3} {
			v := make([]float32, n)
			var want float32
			for i := range v {
				v[i] = rng.Float32()*2 - 1 + shift
				want = max(want, abs32(v[i]))
			}
			if got := peakAbs(v); got != want {
				t.Fatalf("n %d shift %v: peakAbs %v, want %v", n, shift, got, want)
			}
		}
	}
	if got := peakAbs([]float32{float32(math.Copysign(0, -1)), 0}); got != 0 {
		t.Errorf("signed zeros: %v", got)
	}
}

// TestCodesTiles checks that codes.add lays out every row's codes in its
// tile, whatever the batches (uneven, and large enough to be quantised on
// several goroutines), and leaves the last tile's spare rows zero.
func TestCodesTiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(64, 2))
	for _, dim := range []int{3, 384} {
		c := &codes{stride: codeStride(dim)}
		var mem memory
		var all []float32
		for _, n := range []int{1, 100, 1000, 37, 700} {
			vecs := randomUnit(rng, n, dim)
			c.add(&mem, vecs, dim)
			all = append(all, vecs...)
		}
		rows := len(all) / dim
		if len(c.scales) != rows || len(c.data) != tiles(rows)*c.tileBytes() {
			t.Fatalf("dim %d: %d scales and %d bytes for %d rows", dim, len(c.scales), len(c.data), rows)
		}
		want := make([]int8, c.stride)
		for i := range tiles(rows) * tileRows {
			clear(want)
			if i < rows {
				quantize(want, all[i*dim:(i+1)*dim])
			}
			tile := c.data[i/tileRows*c.tileBytes():]
			for j := range c.stride {
				if got := tile[j*columnBytes+i%tileRows]; got != want[j] {
					t.Fatalf("dim %d: row %d code %d is %d, want %d", dim, i, j, got, want[j])
				}
			}
		}
		mem.release()
	}
}
