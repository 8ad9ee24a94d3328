// Package ireval scores ranked retrieval against graded relevance
// judgements: the TREC qrels format, graded nDCG@k and recall@k.
//
// It is what the BM25 quality test and retrieval benchmarks share, kept
// apart from any index so that BM25, vector and fused rankings are measured
// by the same ruler.
//
// Definitions (those of trec_eval and pytrec_eval, so numbers compare with
// published BEIR tables):
//
//   - nDCG@k uses linear gains (gain = grade) and the discount
//     1/log2(rank+1), rank from 1. The ideal ranking orders every judged
//     document of the query by grade; a query without a positive grade
//     scores 0.
//   - recall@k is the share of a query's relevant documents (positive
//     grade at least a threshold) found in the first k; a query without
//     relevant documents scores 0.
//   - A ranking lists each document once; repeats are the caller's bug and
//     are counted as often as they appear.
//
// Averages run over the queries that have judgements (the qrels), as
// trec_eval does, whether or not the system returned anything for them.
//
// Caveat: a grade of 0 or below is read but gains nothing and never counts
// as relevant.
package ireval
