package dedup

import (
	"fmt"
	"slices"

	"github.com/viterin/vek/vek32"
)

// Outlier constants (see the package doc): the modified z-score above
// which a candidate is an outlier, and the fewest candidates with vectors
// for which the median and MAD mean anything.
const (
	MaxZ          = 3.5
	MinOutlierSet = 5
)

// Outlier is a candidate far from the rest: Mean is its mean cosine to
// the others, Median and MAD those of all the means, Z its modified
// z-score.
type Outlier struct {
	Index                int
	Mean, Median, MAD, Z float64
}

// String is the reason a result gives.
func (o Outlier) String() string {
	return fmt.Sprintf("mean cosine %.2f to the other candidates, median %.2f, MAD %.2f (z %.1f > %g)", o.Mean, o.Median, o.MAD, o.Z, MaxZ)
}

// Outliers returns the outliers among vecs (normalised; a nil vector is
// skipped), in index order.
func Outliers(vecs [][]float32) []Outlier {
	var idx []int
	for i, v := range vecs {
		if len(v) > 0 && (len(idx) == 0 || len(v) == len(vecs[idx[0]])) {
			idx = append(idx, i)
		}
	}
	if len(idx) < MinOutlierSet {
		return nil
	}
	means := make([]float64, len(idx))
	for a, i := range idx {
		for b, j := range idx[a+1:] {
			c := float64(vek32.Dot(vecs[i], vecs[j]))
			means[a] += c
			means[a+1+b] += c
		}
	}
	for a := range means {
		means[a] /= float64(len(idx) - 1)
	}
	med := median(means)
	dev := make([]float64, len(means))
	for a, m := range means {
		dev[a] = max(m-med, med-m)
	}
	mad := median(dev)
	if mad == 0 {
		return nil
	}
	var out []Outlier
	for a, m := range means {
		if z := 0.6745 * (med - m) / mad; z > MaxZ {
			out = append(out, Outlier{Index: idx[a], Mean: m, Median: med, MAD: mad, Z: z})
		}
	}
	return out
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
