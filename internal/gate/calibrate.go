package gate

import (
	"math/rand"
	"slices"
)

// Case is one input read into labelled units.
type Case []Unit

// ReadCase labels the sentences of input.
func ReadCase(input string, names Names) Case {
	return Read(input, names, DefaultTheta1, DefaultTheta2).Units
}

// Without returns c without the units whose indexes are in masked.
func (c Case) Without(masked map[int]bool) Case {
	out := make(Case, 0, len(c))
	for i, u := range c {
		if !masked[i] {
			out = append(out, u)
		}
	}
	return out
}

// WithoutLabel returns c without its units labelled label.
func (c Case) WithoutLabel(label string) Case {
	out := make(Case, 0, len(c))
	for _, u := range c {
		if u.Label != label {
			out = append(out, u)
		}
	}
	return out
}

// MaskCurve masks 0, 1, ..., steps-1 sentences of every case, in a random
// order per case (seeded), and returns the mean score at each step and
// the share of cases whose own score never rose from one step to the next.
func MaskCurve(cases []Case, steps int, seed int64) (mean []float64, monotone float64) {
	rng := rand.New(rand.NewSource(seed))
	mean = make([]float64, steps)
	kept := 0
	for _, c := range cases {
		order := rng.Perm(len(c))
		masked := map[int]bool{}
		prev, ok := 2.0, true
		for k := range steps {
			if k > 0 && k <= len(order) {
				masked[order[k-1]] = true
			}
			s := Score(c.Without(masked))
			mean[k] += s / float64(len(cases))
			ok = ok && s <= prev
			prev = s
		}
		if ok {
			kept++
		}
	}
	return mean, float64(kept) / float64(max(len(cases), 1))
}

// Thresholds are the two cuts calibrated on masked cases, with the
// shares of each set they send each way.
type Thresholds struct {
	Theta1, Theta2 float64
	// FullAnswer is the share of full cases at or above theta1, and
	// HalfAnswer that of half-masked cases (the error theta1 bounds).
	FullAnswer, HalfAnswer float64
	// SparseWarn is the share of cases without A sentences below
	// theta2, and HalfWarn that of half-masked cases.
	SparseWarn, HalfWarn float64
}

// Calibrate chooses theta1 and theta2 on cases taken as complete (MedQA
// vignettes, written to be answerable as they stand), guarding against
// the costly error of each decision:
//
//   - answering without retrieval on an incomplete input: theta1 is the
//     lowest cut that at most Tolerance of the cases with half of their
//     sentences masked (at random, seeded) reach;
//   - not warning on an input without objective evidence: theta2 is the
//     lowest cut that at least 1 - Tolerance of the cases with every A
//     sentence masked fall below.
//
// Cuts are on a grid of 0.01.
func Calibrate(cases []Case, seed int64) Thresholds {
	m := maskSets(cases, seed)
	theta1 := lowestCut(func(c float64) bool { return share(m.half, c) <= Tolerance })
	theta2 := lowestCut(func(c float64) bool { return 1-share(m.sparse, c) >= 1-Tolerance })
	return m.shares(theta1, theta2)
}

// Apply reports how the given thresholds sort the cases, masked as
// Calibrate masks them.
func Apply(cases []Case, seed int64, theta1, theta2 float64) Thresholds {
	return maskSets(cases, seed).shares(theta1, theta2)
}

// masked holds the scores of the cases in full, with half of their
// sentences masked, and without their A sentences.
type masked struct{ full, half, sparse []float64 }

func maskSets(cases []Case, seed int64) masked {
	rng := rand.New(rand.NewSource(seed))
	var m masked
	for _, c := range cases {
		m.full = append(m.full, Score(c))
		hidden := map[int]bool{}
		for _, i := range rng.Perm(len(c))[:len(c)/2] {
			hidden[i] = true
		}
		m.half = append(m.half, Score(c.Without(hidden)))
		m.sparse = append(m.sparse, Score(c.WithoutLabel(Critical)))
	}
	return m
}

func (m masked) shares(theta1, theta2 float64) Thresholds {
	return Thresholds{Theta1: theta1, Theta2: theta2,
		FullAnswer: share(m.full, theta1), HalfAnswer: share(m.half, theta1),
		SparseWarn: 1 - share(m.sparse, theta2), HalfWarn: 1 - share(m.half, theta2)}
}

// Tolerance is the share of calibration cases a threshold may send the
// costly way.
const Tolerance = 0.1

// lowestCut returns the lowest multiple of 0.01 in (0, 1] that ok
// accepts, or 1.
func lowestCut(ok func(float64) bool) float64 {
	for step := 1; step <= 100; step++ {
		if c := float64(step) / 100; ok(c) {
			return c
		}
	}
	return 1
}

// share returns the share of xs at or above cut.
func share(xs []float64, cut float64) float64 {
	n := 0
	for _, x := range xs {
		if x >= cut-1e-12 {
			n++
		}
	}
	return float64(n) / float64(max(len(xs), 1))
}

// Decisions counts the decisions on the given scores.
func Decisions(scores []float64, theta1, theta2 float64) map[string]int {
	out := map[string]int{Answer: 0, Retrieve: 0, Warn: 0}
	for _, s := range scores {
		out[Decide(s, theta1, theta2)]++
	}
	return out
}

// Median returns the median of xs (0 for none).
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
