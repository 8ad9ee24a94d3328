package bm25

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// FuzzSearchText feeds arbitrary query text to Search: it must succeed
// (ErrEmptyQuery exactly for blank text) and return at most k known
// chunks ordered by score, then ordinal.
func FuzzSearchText(f *testing.F) {
	ix := openTemp(f)
	texts := []string{
		"Patient's tumors shrank after chemotherapy.",
		"患者三天前出现发热和咳嗽，伴有头痛。",
		"ＦＵＬＬ-width ｶﾀｶﾅ and 한국어 text",
		"num num num blood pressure 120/80 mmHg",
		"the of and a an",
		"",
	}
	docs := make([]Doc, len(texts))
	for i, t := range texts {
		docs[i] = Doc{Ord: uint64(i), Text: t}
	}
	if err := ix.Apply(1, nil, docs); err != nil {
		f.Fatal(err)
	}
	for _, s := range append(texts, " ", "\xff\xfe", "tumor*", "\"fever\" OR -cough", "发热发热发热") {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, text string, k int) {
		k = 1 + (k&0xff)%10
		hits, err := ix.Search(context.Background(), text, k, nil)
		if strings.TrimSpace(text) == "" {
			if !errors.Is(err, ErrEmptyQuery) {
				t.Fatalf("blank %q: error %v, want ErrEmptyQuery", text, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if len(hits) > k {
			t.Fatalf("%q: %d hits for k = %d", text, len(hits), k)
		}
		for i, h := range hits {
			if h.Ord >= uint64(len(texts)) {
				t.Fatalf("%q: unknown ord %d", text, h.Ord)
			}
			if i > 0 && (h.Score > hits[i-1].Score || h.Score == hits[i-1].Score && h.Ord < hits[i-1].Ord) {
				t.Fatalf("%q: hits out of order: %v", text, hits)
			}
		}
	})
}

// FuzzDecodeOrd checks that decodeOrd accepts exactly what encodeOrd
// writes.
func FuzzDecodeOrd(f *testing.F) {
	for _, s := range []string{encodeOrd(0), encodeOrd(1<<64 - 1), "000000000000000A", "+00000000000000f", "12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		ord, err := decodeOrd(id)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%q: error %v is not ErrCorrupt", id, err)
			}
			return
		}
		if enc := encodeOrd(ord); enc != id {
			t.Fatalf("%q decodes to %d, which encodes as %q", id, ord, enc)
		}
	})
}
