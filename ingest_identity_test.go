package medkb

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"testing"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/synth"
)

// Digests of what ingest made of identityDocs before the ingest speed-ups
// of issue 21: every prepared chunk (texts, tiers and why, token counts,
// keys, state B) with its vectors, and the BM25 hits (ordinals and exact
// scores) of identityQueries. Making ingest faster must not move them; a
// change that means to (a new classifier rule, say) updates them.
const (
	wantPrepared = "cb9f647073fcfceb85e35bbdbd59aa631f2fc8b582ce15c63234930bc791b022"
	wantBM25     = "7a01eca72700fb98ffb4663284cdd155d76b82f9c7b5792c1fd5d8794d7aad68"
)

var identityQueries = []string{
	"troponin chest pain", "胸痛 心电图", "hemoglobin anemia", "penicillin allergy rash",
	"CT nodule lung", "metformin diabetes", "biopsy carcinoma", "blood pressure",
	"patients study cohort", "reference range (3.5-5.1)",
}

// identityDocs is the sample corpus, synthetic clinical documents and the
// sample's words resampled: more chunks than one BM25 batch holds.
func identityDocs(t *testing.T) []Doc {
	docs := sampleDocs(t)
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = d.Text
	}
	more := synth.Docs(2000, 5)
	for _, d := range synth.Resample(texts, 600, 5) {
		d.ID = "resampled-" + d.ID
		more = append(more, d)
	}
	return append(docs, convert(more, fromBaseDoc)...)
}

func TestIngestOutputUnchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests 2,600 documents")
	}
	ctx := context.Background()
	db := openEmpty(t)
	docs := identityDocs(t)
	puts, err := db.preparer().prepare(ctx, convert(docs, toBaseDoc), nil)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	if err := json.NewEncoder(h).Encode(puts); err != nil {
		t.Fatal(err)
	}
	for _, w := range puts {
		for _, v := range w.Vectors {
			h.Write(binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)))
		}
		for _, c := range w.Chunks {
			for _, v := range c.VectorB {
				h.Write(binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)))
			}
		}
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != wantPrepared {
		t.Errorf("prepared chunks and vectors: digest %s, want %s", got, wantPrepared)
	}

	if _, err := db.Ingest(ctx, docs); err != nil {
		t.Fatal(err)
	}
	g, release, err := db.snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	h = sha256.New()
	for _, q := range identityQueries {
		hits, err := g.bm.Search(ctx, q, 100, base.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 {
			t.Errorf("%q: no BM25 hits", q)
		}
		for _, hit := range hits {
			h.Write(binary.LittleEndian.AppendUint64(nil, hit.Ord))
			h.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(hit.Score)))
		}
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != wantBM25 {
		t.Errorf("BM25 hits: digest %s, want %s", got, wantBM25)
	}
}
