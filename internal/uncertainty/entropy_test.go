package uncertainty

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// sameFirstWord is a judge for hand-built cases: two answers entail each
// other when their first words agree. oneWay is a judge that entails only
// from a longer answer to a shorter one, never both ways.
func sameFirstWord(a, b string) bool {
	return strings.Fields(a)[0] == strings.Fields(b)[0]
}

func oneWay(a, b string) bool { return len(a) > len(b) }

func TestSemanticEntropy(t *testing.T) {
	ln := math.Log
	for _, tc := range []struct {
		name     string
		answers  []string
		logProbs []float64
		entails  func(a, b string) bool
		want     float64
		classes  [][]int
	}{
		{"all equivalent", []string{"aspirin daily", "aspirin each day", "aspirin"}, []float64{-1, -5, -2}, sameFirstWord, 0, [][]int{{0, 1, 2}}},
		{"all distinct equal probabilities", []string{"a", "b", "c", "d"}, []float64{-3, -3, -3, -3}, sameFirstWord, ln(4), [][]int{{0}, {1}, {2}, {3}}},
		// Probabilities 1/2, 1/4, 1/4 (log-probabilities ln .5, ln .25,
		// ln .25): classes {0, 2} with 3/4 and {1} with 1/4, so SE =
		// -(3/4 ln 3/4 + 1/4 ln 1/4) = 0.5623.
		{"mixed", []string{"yes it is", "no", "yes"}, []float64{ln(0.5), ln(0.25), ln(0.25)}, sameFirstWord, -(0.75*ln(0.75) + 0.25*ln(0.25)), [][]int{{0, 2}, {1}}},
		// Unnormalised and underflowing: exp(-2000) is 0 in float64, the
		// shares are still 1/2 and 1/2.
		{"long answers", []string{"yes", "no"}, []float64{-2000, -2000}, sameFirstWord, ln(2), [][]int{{0}, {1}}},
		{"zero probability adds nothing", []string{"yes", "no"}, []float64{-1, math.Inf(-1)}, sameFirstWord, 0, [][]int{{0}, {1}}},
		{"one-way entailment is not equivalence", []string{"aspirin 100 mg", "aspirin"}, []float64{-1, -1}, oneWay, ln(2), [][]int{{0}, {1}}},
	} {
		got, err := SemanticEntropy(tc.answers, tc.logProbs, tc.entails)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.Abs(got.SE-tc.want) > 1e-12 {
			t.Errorf("%s: SE = %v, want %v", tc.name, got.SE, tc.want)
		}
		if !slices.EqualFunc(got.Classes, tc.classes, slices.Equal) {
			t.Errorf("%s: classes %v, want %v", tc.name, got.Classes, tc.classes)
		}
	}
}

func TestSemanticEntropyRefuses(t *testing.T) {
	for _, tc := range []struct {
		name     string
		answers  []string
		logProbs []float64
	}{
		{"none", nil, nil},
		{"count mismatch", []string{"a"}, []float64{-1, -2}},
		{"NaN", []string{"a"}, []float64{math.NaN()}},
		{"+Inf", []string{"a"}, []float64{math.Inf(1)}},
		{"all impossible", []string{"a", "b"}, []float64{math.Inf(-1), math.Inf(-1)}},
	} {
		if _, err := SemanticEntropy(tc.answers, tc.logProbs, sameFirstWord); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", tc.name, err)
		}
	}
}
