// Package synth makes deterministic synthetic clinical documents for
// benchmarks at scales no hand-written corpus reaches (100k documents).
// The text is word salad from a clinical vocabulary with values and units
// sprinkled in, about 80 words a document, typed across the four tiers;
// it exercises every stage of ingest and retrieval at realistic sizes, not
// retrieval quality (use NFCorpus for that).
package synth
