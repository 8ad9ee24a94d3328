package vectorbench

import (
	"context"
	"os"
	"strings"

	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/internal/ireval"
)

// windowWords is the length of the text windows Embedded embeds: about a
// sentence, as chunks of a store of sentences are.
const windowWords = 10

// Embedded returns up to n vectors of dimension dim embedded by the
// built-in hash embedder from consecutive windows of windowWords words of
// the documents in docs files ("ID<TAB>text" lines, e.g. NFCorpus's
// test.docs), and the embedded queries of the queries file (same format).
// It returns fewer than n vectors when the documents run out.
func Embedded(n, dim int, queries string, docs ...string) (slab, qs []float32, err error) {
	var texts []string
	for _, path := range docs {
		err := readPairs(path, func(_, text string) error {
			words := strings.Fields(text)
			for lo := 0; lo < len(words) && len(texts) < n; lo += windowWords {
				texts = append(texts, strings.Join(words[lo:min(lo+windowWords, len(words))], " "))
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	var qtexts []string
	if err := readPairs(queries, func(_, text string) error { qtexts = append(qtexts, text); return nil }); err != nil {
		return nil, nil, err
	}
	e := embed.NewHash(dim)
	if slab, err = embedFlat(e, texts); err != nil {
		return nil, nil, err
	}
	qs, err = embedFlat(e, qtexts)
	return slab, qs, err
}

func readPairs(path string, fn func(id, text string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return ireval.ReadPairs(f, fn)
}

// embedFlat embeds texts into one row-major slab, skipping texts whose
// vector is all zero (the hash embedder gives that for text without a
// word), since a search needs unit vectors.
func embedFlat(e embed.Embedder, texts []string) ([]float32, error) {
	rows, err := e.Embed(context.Background(), texts)
	if err != nil {
		return nil, err
	}
	out := make([]float32, 0, len(rows)*e.Dim())
	for _, v := range rows {
		var sq float32
		for _, f := range v {
			sq += f * f
		}
		if sq > 0.5 {
			out = append(out, v...)
		}
	}
	return out, nil
}
