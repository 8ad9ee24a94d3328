package embed

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"unicode/utf8"

	"github.com/medkb/medkb/index/vector"
)

// DefaultHashDim is the dimension NewHash uses when given none.
const DefaultHashDim = 384

// hashName is recorded by the store. It pins the whole algorithm:
// tokenisation, stemming, stopwords, feature kinds, weights and hash. Any
// change that moves a vector must bump it, or stores built before the
// change would be queried with incompatible vectors.
const hashName = "hash-v1"

// minTextsPerWorker is the batch share below which Embed does not start
// another goroutine.
const minTextsPerWorker = 32

// NewHash returns the built-in embedder: deterministic signed feature
// hashing of words, word pairs and character n-grams, in dim dimensions
// (DefaultHashDim if dim <= 0). See the package documentation.
func NewHash(dim int) Embedder {
	if dim <= 0 {
		dim = DefaultHashDim
	}
	return &hashEmbedder{dim: dim}
}

type hashEmbedder struct {
	dim         int
	featurizers sync.Pool // *featurizer
}

func (e *hashEmbedder) Name() string { return hashName }

func (e *hashEmbedder) Dim() int { return e.dim }

// Embed hashes texts on up to runtime.GOMAXPROCS(0) goroutines. It fails
// only when ctx is done.
func (e *hashEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := rows(len(texts), e.dim)
	workers := max(1, min(runtime.GOMAXPROCS(0), len(texts)/minTextsPerWorker))
	per := (len(texts) + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < len(texts); lo += per {
		hi := min(lo+per, len(texts))
		if hi == len(texts) {
			e.embedRange(ctx, texts[lo:hi], out[lo:hi]) // the caller takes the last share
		} else {
			wg.Go(func() { e.embedRange(ctx, texts[lo:hi], out[lo:hi]) })
		}
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("embed: %s: %w", hashName, err)
	}
	return out, nil
}

// embedRange embeds texts into dst with one pooled featurizer, stopping
// early when ctx is done.
func (e *hashEmbedder) embedRange(ctx context.Context, texts []string, dst [][]float32) {
	f, _ := e.featurizers.Get().(*featurizer)
	if f == nil {
		f = new(featurizer)
	}
	defer e.featurizers.Put(f)
	for i, text := range texts {
		if i%64 == 0 && ctx.Err() != nil {
			return
		}
		f.embed(text, dst[i])
	}
}

// featurizer holds the reusable buffers for hashing one text at a time.
type featurizer struct {
	text   []byte
	tokens []token
	counts featureCounts
}

// embed writes the normalised hash vector of s into dst (the zero vector
// if s has no features).
func (f *featurizer) embed(s string, dst []float32) {
	f.tokenize(s)
	f.counts.reset()
	var prev uint64 // hash of the previous content word; 0 for none
	for _, t := range f.tokens {
		if t.cjk {
			f.addHan(f.text[t.start:t.end])
			prev = 0
			continue
		}
		w := f.text[t.start:t.end]
		if isStopword(w) {
			continue // transparent: the words around it still pair
		}
		prefix, letter := stem(w)
		h := fnvAdd(fnvStart(kindWord), prefix)
		if letter != 0 {
			h = fnvByte(h, letter)
		}
		h = mix(h)
		f.counts.add(h, weightWord)
		if prev != 0 {
			f.counts.add(pair(kindWordPair, prev, h), weightWordPair)
		}
		prev = h
		if len(w) >= minTrigramWord {
			padded := f.text[t.start-1 : t.end+1] // the spaces mark the word's edges
			for i := 0; i+3 <= len(padded); i++ {
				f.counts.add(mix(fnvAdd(fnvStart(kindTrigram), padded[i:i+3])), weightTrigram)
			}
		}
	}
	f.project(dst)
}

// addHan adds the character unigrams and bigrams of a CJK run, skipping
// function characters.
func (f *featurizer) addHan(run []byte) {
	prevStart := -1 // byte offset of the previous content character
	for i := 0; i < len(run); {
		r, size := utf8.DecodeRune(run[i:])
		if isStopRune(r) {
			prevStart = -1
			i += size
			continue
		}
		f.counts.add(mix(fnvAdd(fnvStart(kindHan), run[i:i+size])), weightHan)
		if prevStart >= 0 {
			f.counts.add(mix(fnvAdd(fnvStart(kindHanPair), run[prevStart:i+size])), weightHanPair)
		}
		prevStart = i
		i += size
	}
}

// project folds the counted features into dst: each adds
// weight*(1+ln tf) with a hash-chosen sign to a hash-chosen coordinate.
// Signs make collisions cancel in expectation rather than pile up.
func (f *featurizer) project(dst []float32) {
	clear(dst)
	dim := uint64(len(dst))
	for _, i := range f.counts.used {
		s := &f.counts.slots[i]
		v := s.weight
		if s.tf > 1 {
			v *= 1 + float32(math.Log(float64(s.tf)))
		}
		if s.key&1 != 0 {
			v = -v
		}
		dst[(s.key>>32)*dim>>32] += v
	}
	vector.Normalize(dst)
}
