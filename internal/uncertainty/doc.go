// Package uncertainty measures how unsure a language model is of an
// answer by the meaning of its samples rather than their wording: the
// semantic entropy of Kuhn et al., as seed 003 describes it for deciding
// when to retrieve (retrieve when the entropy exceeds a threshold).
//
// The store has no model: the caller samples the answers, gives their
// sequence log-probabilities, and judges entailment (an NLI model, an
// LLM); this package does the clustering and the arithmetic.
//
// Caveats: greedy clustering compares a sample with each class's first
// member only, so the classes depend on the samples' order when the
// judge is not transitive; the entropy is in nats, and is at most log M
// for M samples.
package uncertainty
