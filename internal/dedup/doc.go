// Package dedup finds near-duplicate evidence and flags outliers among the
// candidates of one query, with arithmetic only: cosines of the stored
// chunk vectors and overlaps of word shingles. The planner runs it on the
// candidates that reach PACK (planner/dedup.go); the packing benchmark
// (internal/bench/packbench) runs it on its candidates to measure it.
//
// # Near-duplicates
//
// Copy-forward text is everywhere in clinical records: a lab line copied
// into every progress note. Two candidates are near-duplicates when
//
//   - they are the same kind of evidence about the same subject: same tier
//     and same group (the planner's group is the patient and the study
//     design; two patients' chunks, or two studies of different designs,
//     are never duplicates, however alike), and
//   - their values agree: the multisets of numeric tokens (a number with
//     the unit or sign written after it, "2.3ng/ml", "38.5℃", "45%") are
//     equal, so "troponin 2.3" and "troponin 0.4" are two observations
//     even at cosine 0.99, and
//   - one of three tests matches: the cosine of their vectors is at least
//     MinCosine (0.95, seed 001's threshold); one text holds the other
//     whole, at most MaxGrowth (2) times as many characters, and what it adds is
//     clinically inert ("contained": a copy with a header or signature
//     added); or the Jaccard overlap of their word 3-shingles is at least
//     MinShingles (0.8).
//
// The tests catch different copies. With a neural embedder the cosine
// catches a paraphrased copy ("trop I 2.3" for "troponin I 2.3", a
// reordered line); the value check keeps it from merging different
// findings. The hash embedder's cosine is itself lexical (hashed word and
// character n-grams), so there it catches copies that differ by a few
// words anywhere. Shingles catch a copy with a header or a signature
// added or removed: one sentence added to a five-sentence note moves a
// hash cosine below 0.95 more easily than it moves 3-shingle Jaccard
// below 0.8, and shingles need no vector (a graph path, a chunk whose
// vector is missing). 0.8 is the common near-duplicate threshold for
// shingle Jaccard (web-page copy detection); with 3-shingles it allows
// about one changed word in fifteen, which lets a copy with an updated
// heading match but no rewritten sentence. Words are runs of letters and
// digits; each CJK character is a word, so Chinese text shingles by
// character trigrams.
//
// Containment is what Jaccard misses on short text: a ten-character
// header on a thirty-character Chinese lab line leaves Jaccard near 0.74.
// The shorter text must appear whole in the longer, so a changed word
// ("has no fever" for "has fever") breaks it; what the longer adds must
// hold no key value, finding or allergy statement (clinical.Keys) and
// fire no tier rule (clinical.Classify), so dropping either copy loses
// nothing clinical; and MaxGrowth keeps a short line from being merged
// into a long note that quotes it. Graph paths skip it (Entry.Path): a
// path that extends another is another chain.
//
// Which copy is kept: candidates come in rank order. Among the copies of
// one piece of evidence the best-ranked is kept, unless a copy ranked
// after it has a score within TieRatio (2 %) of it and a later date: then
// the newest of those close copies is kept (copy-forward means the newest
// note is the current one; a copy scored clearly lower stays dropped).
// A copy that also duplicates another kept entry never takes a kept
// one's place, so no two kept entries are duplicates of each other (the
// packed context holds no pair at cosine >= 0.95 unless their tier,
// patient or values differ). Each dropped copy names the kept one and
// the test that matched.
//
// # Outliers
//
// A candidate is an outlier when its mean cosine to the other candidates
// is far below theirs: with m_i that mean, M the median of the m and MAD
// the median absolute deviation of the m from M, the modified z-score
// 0.6745 (M - m_i) / MAD exceeds 3.5 (Iglewicz and Hoaglin's rule; the
// median and MAD are not moved by the outliers themselves, as a mean and
// standard deviation would be). Only low outliers count: evidence unlike
// the rest. It needs at least MinOutlierSet candidates with vectors, and
// no candidate is an outlier when MAD is 0. An outlier is flagged, never
// dropped: evidence that disagrees with the rest may be the one that
// matters (seed 001).
//
// # Cost
//
// Find compares each candidate with the kept copy of every cluster so
// far, cheapest test first: the group, then the values, then the cosine,
// then the shingle-set sizes (|a ∩ b| / |a ∪ b| is at most the smaller
// size over the larger, so sets that differ by more than MinShingles
// allows cannot match), and only then the Jaccard overlap. Values and
// shingles are computed when first needed and once: most pairs differ in
// their group or values, and a cosine match needs no shingles. Values are
// read from the first digit on (they never look back); shingles go into a
// hash set, filled faster than a sorted list. On 100 candidates of 80
// words (BenchmarkFind100, outliers included) this costs about 0.9 ms on
// the 2-core machine of docs/benchmarks.md, where computing everything
// for every candidate cost 2.5-5 ms; in the 100k pipeline Dedup's median
// is under 0.2 ms. Decisions are the same: the tests compare the same
// quantities.
//
// # Caveats
//
//   - Pairwise comparison is quadratic; the planner runs it on the
//     candidates that reach PACK (hundreds at most).
//   - A number written as a word ("two tablets") is not a numeric token.
package dedup
