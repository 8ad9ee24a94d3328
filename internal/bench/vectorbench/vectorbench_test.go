package vectorbench

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/shareddata"
)

func TestRun(t *testing.T) {
	for _, scan := range []vector.Scan{vector.ScanF32, vector.ScanInt8} {
		r := Run(Config{N: 3000, Dim: 24, Queries: 5, Scan: scan})
		if !(r.MsPerQuery > 0) || !(r.GBPerS > 0) || !(r.Bandwidth > 0) || !(r.Ratio > 0) || r.Kernel != vector.KernelName(scan, 24) {
			t.Errorf("scan %v: %+v", scan, r)
		}
		if r.Recall < 0.9 {
			t.Errorf("scan %v: recall@10 %v", scan, r.Recall)
		}
	}
}

// int8Recall is the mean recall@10 of the int8 scan with rescoring
// against the exact f32 scan, over the queries qs.
func int8Recall(t *testing.T, dim int, slab, qs []float32) float64 {
	n := len(slab) / dim
	slots := make([]base.Slot, n)
	for i := range slots {
		slots[i] = base.Slot{Ord: uint64(i), Alive: true}
	}
	exact := vector.New(dim)
	q8 := vector.NewInt8(dim, sliceSource{dim: dim, vecs: slab})
	if err := exact.Load(slots, slab); err != nil {
		t.Fatal(err)
	}
	if err := q8.Load(slices.Clone(slots), slab); err != nil {
		t.Fatal(err)
	}
	var sum float64
	for i := range len(qs) / dim {
		q := qs[i*dim : (i+1)*dim]
		got, err := q8.SearchWith(q, 10, nil, vector.ScanInt8)
		if err != nil {
			t.Fatal(err)
		}
		sum += recall(got, exact.Search(q, 10, nil))
	}
	return sum / float64(len(qs)/dim)
}

// TestInt8RecallRandom is the recall target on random unit vectors:
// 100k x 384, 200 queries, recall@10 >= 0.99.
func TestInt8RecallRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 100k x 384 slab")
	}
	rng := rand.New(rand.NewPCG(3, 3))
	const dim = 384
	r := int8Recall(t, dim, unitVectors(rng, 100_000, dim), unitVectors(rng, 200, dim))
	t.Logf("random 100k x 384: int8+rescore %d recall@10 %.4f", vector.RescoreDepth(10), r)
	if r < 0.99 {
		t.Errorf("recall@10 %.4f, want >= 0.99", r)
	}
}

// TestInt8RecallNFCorpus is the recall target on NFCorpus text embedded
// by the built-in embedder: windows of the test and dev documents, the
// test title queries.
func TestInt8RecallNFCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("embeds NFCorpus")
	}
	docs := shareddata.Path(t, "nfcorpus", "test.docs")
	dev := shareddata.Path(t, "nfcorpus", "dev.docs")
	queries := shareddata.Path(t, "nfcorpus", "test.titles.queries")
	const dim = 384
	slab, qs, err := Embedded(100_000, dim, queries, docs, dev)
	if err != nil {
		t.Fatal(err)
	}
	r := int8Recall(t, dim, slab, qs)
	t.Logf("NFCorpus %d windows x %d, %d queries: int8+rescore %d recall@10 %.4f", len(slab)/dim, dim, len(qs)/dim, vector.RescoreDepth(10), r)
	if r < 0.99 {
		t.Errorf("recall@10 %.4f, want >= 0.99", r)
	}
}
