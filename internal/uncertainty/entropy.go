package uncertainty

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalid is returned when the samples cannot be weighed: none, a
// count of log-probabilities that differs from the answers', a
// log-probability that is NaN or +Inf, or all of them -Inf.
var ErrInvalid = errors.New("medkb: invalid samples")

// Entropy is the semantic entropy of a set of sampled answers.
type Entropy struct {
	// SE = -sum over classes c of p(c) log p(c), in nats.
	SE float64
	// Classes holds the indices of the answers of each class, the class
	// of the first answer first; a class's first member is its
	// representative.
	Classes [][]int
	// P is each class's probability: the sum of its members' sequence
	// probabilities normalised over all samples.
	P []float64
}

// SemanticEntropy clusters answers greedily by bidirectional entailment
// and returns the entropy of the classes. Each answer in turn joins the
// first class whose representative r satisfies entails(answer, r) and
// entails(r, answer), or starts a class of its own. logProbs[i] is the
// log of answer i's sequence probability (the sum of its tokens' log
// probabilities); the probabilities are normalised over the samples
// (through the largest log-probability, so that long answers whose
// probabilities underflow float64 still count), and p(c) is the sum of
// its members' shares.
func SemanticEntropy(answers []string, logProbs []float64, entails func(a, b string) bool) (Entropy, error) {
	if len(answers) == 0 || len(answers) != len(logProbs) {
		return Entropy{}, fmt.Errorf("%w: %d answers, %d log-probabilities", ErrInvalid, len(answers), len(logProbs))
	}
	top := math.Inf(-1)
	for i, lp := range logProbs {
		if math.IsNaN(lp) || math.IsInf(lp, 1) {
			return Entropy{}, fmt.Errorf("%w: answer %d has log-probability %v", ErrInvalid, i, lp)
		}
		top = math.Max(top, lp)
	}
	if math.IsInf(top, -1) {
		return Entropy{}, fmt.Errorf("%w: every answer has probability 0", ErrInvalid)
	}
	var e Entropy
	var total float64
	for i, a := range answers {
		w := math.Exp(logProbs[i] - top)
		total += w
		k := 0
		for k < len(e.Classes) {
			r := answers[e.Classes[k][0]]
			if entails(a, r) && entails(r, a) {
				break
			}
			k++
		}
		if k == len(e.Classes) {
			e.Classes = append(e.Classes, nil)
			e.P = append(e.P, 0)
		}
		e.Classes[k] = append(e.Classes[k], i)
		e.P[k] += w
	}
	for k := range e.P {
		e.P[k] /= total
		if p := e.P[k]; p > 0 {
			e.SE -= p * math.Log(p)
		}
	}
	return e, nil
}
