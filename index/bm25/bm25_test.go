package bm25

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/store"
)

// find runs a query expected to succeed and returns the ordinals found.
func find(t *testing.T, ix *Index, text string, k int, f base.Filter) []uint64 {
	t.Helper()
	hits, err := ix.Search(context.Background(), text, k, f)
	if err != nil {
		t.Fatalf("Search(%q, %v): %v", text, f, err)
	}
	ords := make([]uint64, len(hits))
	for i, h := range hits {
		ords[i] = h.Ord
	}
	return ords
}

// sorted returns the ordinals found in ascending order.
func sorted(ords []uint64) []uint64 {
	s := slices.Clone(ords)
	slices.Sort(s)
	return s
}

func apply(t *testing.T, ix *Index, seq uint64, deletes []uint64, adds ...Doc) {
	t.Helper()
	if err := ix.Apply(seq, deletes, adds); err != nil {
		t.Fatalf("Apply(%d): %v", seq, err)
	}
}

// allOrds returns what Ords reports.
func allOrds(t *testing.T, ix *Index) []uint64 {
	t.Helper()
	var ords []uint64
	if err := ix.Ords(func(o uint64) error { ords = append(ords, o); return nil }); err != nil {
		t.Fatal(err)
	}
	return ords
}

// checkConsistent asserts that Count and Ords agree with want.
func checkConsistent(t *testing.T, ix *Index, want ...uint64) {
	t.Helper()
	n, err := ix.Count()
	if err != nil {
		t.Fatal(err)
	}
	got := allOrds(t, ix)
	if n != uint64(len(want)) || !slices.Equal(got, want) {
		t.Fatalf("index holds %d chunks %v, want %v", n, got, want)
	}
}

func TestApplyDeleteUpsert(t *testing.T) {
	ix := openTemp(t)
	checkConsistent(t, ix)

	apply(t, ix, 1, nil,
		Doc{Ord: 10, Text: "aspirin lowers fever"},
		Doc{Ord: 11, Text: "ibuprofen lowers fever and pain"},
		Doc{Ord: 12, Text: "statins lower cholesterol"},
	)
	checkConsistent(t, ix, 10, 11, 12)
	if got := sorted(find(t, ix, "fever", 10, nil)); !slices.Equal(got, []uint64{10, 11}) {
		t.Errorf("fever: got %v, want [10 11]", got)
	}

	apply(t, ix, 2, []uint64{11, 99}, Doc{Ord: 10, Text: "aspirin thins blood"}) // 99 was never indexed
	checkConsistent(t, ix, 10, 12)
	if got := find(t, ix, "fever", 10, nil); len(got) != 0 {
		t.Errorf("fever after delete and upsert: got %v, want nothing", got)
	}
	if got := find(t, ix, "blood", 10, nil); !slices.Equal(got, []uint64{10}) {
		t.Errorf("blood after upsert: got %v, want [10]", got)
	}

	// Deleted and re-added in one batch: the add wins.
	apply(t, ix, 3, []uint64{12}, Doc{Ord: 12, Text: "statins lower LDL"})
	checkConsistent(t, ix, 10, 12)
	if got := find(t, ix, "ldl", 10, nil); !slices.Equal(got, []uint64{12}) {
		t.Errorf("ldl: got %v, want [12]", got)
	}

	// A batch of deletes only.
	apply(t, ix, 4, []uint64{10, 12})
	checkConsistent(t, ix)
}

func TestSeqRoundTrip(t *testing.T) {
	dir := t.TempDir() + "/bm25"
	ix, err := Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if seq, err := ix.Seq(); err != nil || seq != 0 {
		t.Fatalf("new index: Seq = %d, %v; want 0", seq, err)
	}
	apply(t, ix, 5, nil, Doc{Ord: 1, Text: "chest pain"})
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	ix, err = Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if seq, err := ix.Seq(); err != nil || seq != 5 {
		t.Fatalf("reopened: Seq = %d, %v; want 5", seq, err)
	}
	checkConsistent(t, ix, 1)
	if err := ix.Apply(4, nil, nil); !errors.Is(err, ErrStaleSeq) {
		t.Errorf("Apply(4) over 5: %v, want ErrStaleSeq", err)
	}
	apply(t, ix, 5, nil, Doc{Ord: 2, Text: "chest pain again"}) // replay at the same seq
	apply(t, ix, 7, nil)                                        // seq only
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	ro, err := Open(dir, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if seq, err := ro.Seq(); err != nil || seq != 7 {
		t.Fatalf("read-only: Seq = %d, %v; want 7", seq, err)
	}
	checkConsistent(t, ro, 1, 2)
	if got := sorted(find(t, ro, "pain", 10, nil)); !slices.Equal(got, []uint64{1, 2}) {
		t.Errorf("read-only search: got %v, want [1 2]", got)
	}
	if err := ro.Apply(8, nil, nil); !errors.Is(err, store.ErrReadOnly) {
		t.Errorf("Apply on read-only: %v, want ErrReadOnly", err)
	}
	if err := ro.Compact(context.Background()); !errors.Is(err, store.ErrReadOnly) {
		t.Errorf("Compact on read-only: %v, want ErrReadOnly", err)
	}
}

func TestStemmingAndCase(t *testing.T) {
	ix := openTemp(t)
	apply(t, ix, 1, nil,
		Doc{Ord: 1, Text: "A benign tumor of the liver."},
		Doc{Ord: 2, Text: "The patient's RUNNING nose resolved."},
		Doc{Ord: 3, Text: "Ｆｅｖｅｒ recorded at night"}, // full-width Latin
	)
	for _, tc := range []struct {
		query string
		want  []uint64
	}{
		{"tumors", []uint64{1}},
		{"TUMOUR tumor", []uint64{1}},
		{"runs", []uint64{2}},
		{"patient", []uint64{2}},
		{"fever", []uint64{3}},
		{"the of a", nil}, // stop words only: nothing to match
	} {
		if got := find(t, ix, tc.query, 10, nil); !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %v, want %v", tc.query, got, tc.want)
		}
	}
}

func TestCJK(t *testing.T) {
	ix := openTemp(t)
	apply(t, ix, 1, nil,
		Doc{Ord: 1, Text: "患者三天前出现发热和咳嗽，伴有头痛。"},
		Doc{Ord: 2, Text: "血压正常，心率每分钟八十次。"},
		Doc{Ord: 3, Text: "Fever and cough for three days, 发热 noted."},
	)
	for _, tc := range []struct {
		query string
		want  []uint64
	}{
		{"发热", []uint64{1, 3}},
		{"咳嗽", []uint64{1}},
		{"头痛 心率", []uint64{1, 2}},
		{"发烧", nil}, // a different word sharing one character
		{"cough", []uint64{3}},
	} {
		if got := sorted(find(t, ix, tc.query, 10, nil)); !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %v, want %v", tc.query, got, tc.want)
		}
	}
}

// TestTieBreak checks that equal scores come out by ascending ordinal,
// whether the tie at the k-th hit is settled within Search's window or runs
// past it, and with the chunks spread over several segments.
func TestTieBreak(t *testing.T) {
	ix := openTemp(t)
	ords := rand.New(rand.NewPCG(1, 1)).Perm(40)
	for i := 0; i < len(ords); i += 10 {
		var docs []Doc
		for _, o := range ords[i : i+10] {
			docs = append(docs, Doc{Ord: uint64(100 + o), Text: "sepsis screening protocol"})
		}
		apply(t, ix, uint64(i+1), nil, docs...)
	}
	apply(t, ix, 100, nil,
		Doc{Ord: 500, Text: "sepsis sepsis sepsis"}, // best for sepsis, whatever its ord
		Doc{Ord: 302, Text: "lactate lactate"},
		Doc{Ord: 299, Text: "lactate normal normal normal normal normal"},
	)
	apply(t, ix, 101, nil, Doc{Ord: 301, Text: "lactate lactate"}, Doc{Ord: 300, Text: "lactate lactate"})

	for _, tc := range []struct {
		query string
		k     int
		want  []uint64
	}{
		{"sepsis", 1, []uint64{500}},                            // no tie at the cut
		{"sepsis", 4, []uint64{500, 100, 101, 102}},             // 40-way tie, past the window of 8
		{"sepsis", 45, append([]uint64{500}, seq(100, 140)...)}, // every match fits
		{"lactate", 2, []uint64{300, 301}},                      // 3-way tie inside the window of 4
		{"lactate", 3, []uint64{300, 301, 302}},
	} {
		if got := find(t, ix, tc.query, tc.k, nil); !slices.Equal(got, tc.want) {
			t.Errorf("%q top %d: got %v, want %v", tc.query, tc.k, got, tc.want)
		}
	}
}

// seq returns the integers from lo up to hi, excluded.
func seq(lo, hi uint64) []uint64 {
	var s []uint64
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}

func TestSearchErrors(t *testing.T) {
	ix := openTemp(t)
	apply(t, ix, 1, nil, Doc{Ord: 1, Text: "anything", Tier: base.T1})
	ctx := context.Background()
	tier := base.Filter{cond(base.FieldTier, base.OpEq, "T1")}
	for _, text := range []string{"", " \t\n"} {
		if _, err := ix.Search(ctx, text, 10, nil); !errors.Is(err, ErrEmptyQuery) {
			t.Errorf("Search(%q): %v, want ErrEmptyQuery", text, err)
		}
		if _, err := ix.Search(ctx, text, 10, tier); !errors.Is(err, ErrEmptyQuery) {
			t.Errorf("Search(%q) with filter: %v, want ErrEmptyQuery", text, err)
		}
	}
	if _, err := ix.Search(ctx, "anything", 0, nil); err == nil {
		t.Error("Search with k = 0: no error")
	}
	if _, err := ix.Search(ctx, "anything", MaxK+1, nil); err == nil {
		t.Error("Search with k > MaxK: no error")
	}
	// Stop words only: nothing to match, with or without a filter.
	for _, f := range []base.Filter{nil, tier} {
		if got := find(t, ix, "the of and", 10, f); len(got) != 0 {
			t.Errorf("stop words with filter %v: got %v, want nothing", f, got)
		}
	}
}

func TestScoreIsBM25(t *testing.T) {
	ix := openTemp(t)
	apply(t, ix, 1, nil,
		Doc{Ord: 1, Text: "alpha alpha beta beta"},
		Doc{Ord: 2, Text: "alpha"},
		Doc{Ord: 3, Text: "zeta zeta zeta zeta zeta zeta"},
	)
	hits, err := ix.Search(context.Background(), "alpha", 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	// N = 3, n(alpha) = 2, avgdl = ceil(11/3) = 4, k1 = 1.2, b = 0.75.
	// bleve takes tf = sqrt(freq) and omits the constant factor (k1 + 1);
	// for one query term its query normalisation cancels out. bleve's own
	// avgdl would be ceil(3 distinct terms / 3) = 1.
	idf := math.Log(1 + (3-2+0.5)/(2+0.5))
	bm25 := func(freq, dl float64) float64 {
		tf := math.Sqrt(freq)
		return idf * tf * 1.2 / (tf + 1.2*(1-0.75+0.75*dl/4))
	}
	want := []Hit{{Ord: 2, Score: bm25(1, 1)}, {Ord: 1, Score: bm25(2, 4)}}
	if len(hits) != len(want) {
		t.Fatalf("hits %v, want %v", hits, want)
	}
	for i := range want {
		if hits[i].Ord != want[i].Ord || math.Abs(hits[i].Score-want[i].Score) > 1e-6*want[i].Score {
			t.Errorf("hit %d = %+v, want %+v", i, hits[i], want[i])
		}
	}
}

// TestApplyBatches checks that a write applied in small batches leaves
// the index as one Apply does: the same chunks, scores, length statistics
// and seq, deletes applied after the adds, and an ordinal both deleted and
// added indexed.
func TestApplyBatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	words := []string{"troponin", "chest", "pain", "fever", "cough", "anemia", "renal", "biopsy", "carcinoma", "lung"}
	var first, second []Doc
	for i := range 60 {
		var text []string
		for range 3 + rng.IntN(8) {
			text = append(text, words[rng.IntN(len(words))])
		}
		d := Doc{Ord: uint64(i), Doc: "d", Text: strings.Join(text, " "), Tier: base.T4, Time: base.NoDay}
		if i < 20 {
			first = append(first, d)
		} else {
			second = append(second, d)
		}
	}
	deletes := []uint64{3, 7, 25} // 25 is added again by the same write
	one, batched := openTemp(t), openTemp(t)
	for _, ix := range []*Index{one, batched} {
		apply(t, ix, 1, nil, first...)
	}
	apply(t, one, 2, deletes, second...)
	if err := batched.ApplyBatches(2, deletes, second, 7); err != nil {
		t.Fatal(err)
	}
	for _, ix := range []*Index{one, batched} {
		if seq, err := ix.Seq(); err != nil || seq != 2 {
			t.Fatalf("seq %d, %v", seq, err)
		}
	}
	checkConsistent(t, batched, allOrds(t, one)...)
	if one.stats != batched.stats {
		t.Errorf("length statistics: one batch %+v, batches %+v", one.stats, batched.stats)
	}
	for _, q := range []string{"troponin", "chest pain fever", "renal biopsy carcinoma lung"} {
		a, err := one.Search(context.Background(), q, 100, base.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := batched.Search(context.Background(), q, 100, base.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(a, b, func(x, y Hit) bool { return x.Ord == y.Ord && x.Score == y.Score }) {
			t.Errorf("%q: one batch %v, batches %v", q, a, b)
		}
	}
}

func TestEvenBatches(t *testing.T) {
	for _, c := range []struct{ n, size, want int }{
		{0, 2000, 2000}, {500, 2000, 2000}, {2000, 2000, 2000}, {2048, 2000, 1024},
		{5000, 2000, 1250}, {8000, 2000, 2000}, {8001, 2000, 1334}, {10, 0, 1},
	} {
		if got := evenBatches(c.n, c.size); got != c.want {
			t.Errorf("evenBatches(%d, %d) = %d, want %d", c.n, c.size, got, c.want)
		}
	}
}
