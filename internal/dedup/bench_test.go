package dedup

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// BenchmarkFind100 is Dedup's cost on 100 candidates of about 80 words
// with 384-dimensional vectors, the size of a query's PACK input.
func BenchmarkFind100(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	vocab := make([]string, 500)
	for k := range vocab {
		vocab[k] = strings.Repeat(string(rune('a'+k%26)), 1+k/26)
	}
	es := make([]Entry, 100)
	vecs := make([][]float32, len(es))
	for i := range es {
		var sb strings.Builder
		for range 80 { // words of a 500-word vocabulary: few values
			sb.WriteString(vocab[rng.IntN(len(vocab))] + " ")
		}
		fmt.Fprintf(&sb, "troponin %d.%d ng/mL", rng.IntN(5), rng.IntN(10))
		v := make([]float32, 384)
		norm := float32(0)
		for k := range v {
			v[k] = rng.Float32() - 0.5
			norm += v[k] * v[k]
		}
		for k := range v { // unit vectors, as the store keeps them
			v[k] /= float32(math.Sqrt(float64(norm)))
		}
		es[i] = Entry{Text: sb.String(), Vec: v, Group: "T2 P1", Score: 1 / float64(61+i)}
		vecs[i] = v
	}
	b.ReportAllocs()
	for b.Loop() {
		Find(es)
		Outliers(vecs)
	}
}
