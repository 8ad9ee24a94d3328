package ireval

import (
	"math"
	"slices"
)

// NDCG returns graded nDCG at cutoff k of ranked (document ids, best
// first) against grades, the judgements of one query.
func NDCG(ranked []string, grades map[string]int, k int) float64 {
	ideal := make([]int, 0, len(grades))
	for _, g := range grades {
		if g > 0 {
			ideal = append(ideal, g)
		}
	}
	slices.Sort(ideal)
	slices.Reverse(ideal)
	best := dcg(ideal, k)
	if best == 0 {
		return 0
	}
	gains := make([]int, len(ranked))
	for i, id := range ranked {
		gains[i] = grades[id]
	}
	return dcg(gains, k) / best
}

// dcg sums gain/log2(rank+1) over the first k gains, rank from 1.
func dcg(gains []int, k int) float64 {
	var sum float64
	for i, g := range gains[:min(k, len(gains))] {
		if g > 0 {
			sum += float64(g) / math.Log2(float64(i+2))
		}
	}
	return sum
}

// Recall returns the share of the documents graded at least minGrade that
// appear in the first k of ranked, or 0 if there are none.
func Recall(ranked []string, grades map[string]int, k, minGrade int) float64 {
	relevant := 0
	for _, g := range grades {
		if g >= minGrade && g > 0 {
			relevant++
		}
	}
	if relevant == 0 {
		return 0
	}
	found := 0
	for _, id := range ranked[:min(k, len(ranked))] {
		if g, ok := grades[id]; ok && g >= minGrade && g > 0 {
			found++
		}
	}
	return float64(found) / float64(relevant)
}

// Mean averages metric over every query of q, scoring each against its
// ranking in runs (a query missing from runs has an empty ranking).
func Mean(q Qrels, runs map[string][]string, metric func(ranked []string, grades map[string]int) float64) float64 {
	if len(q) == 0 {
		return 0
	}
	var sum float64
	for qid, grades := range q {
		sum += metric(runs[qid], grades)
	}
	return sum / float64(len(q))
}
