// Package text holds the language helpers every ingest path needs: a token
// counter, an English and Chinese sentence segmenter, a sentence-bounded
// chunker, a crude language guess, and TrimBOM, which every line reader
// applies to a file's first line.
//
// Token counts are those of cl100k_base, the tokenizer of the GPT-4 family,
// because budgets in the query language ("PACK budget 512") are meant to be
// the budget of a real prompt. The counter is built once and shared; it is
// safe for concurrent use. It gives exactly the library's counts but cuts
// the text into words where cl100k_base always cuts and remembers each
// word's count, which makes counting an 80-word note about ten times
// cheaper and allocation-free once the vocabulary has been seen (see
// cl100k in tokenizer.go; TestCountExact and FuzzCount hold it to the
// library's answer).
//
// Sentences splits after the English terminators . ! ? ; when they are
// followed by space (or by a CJK character, or the end), after the Chinese
// terminators 。！？；… wherever they are, and at every line break. A period
// does not end a sentence inside a number (2.3), after a listed
// abbreviation (Dr., e.g., approx., No. 5), after list numbering at the
// start of a line or right after a colon ("1.", "诊断意见：1.肺炎"), or when the
// next word starts with a lower-case letter (so "5 mg. daily" stays
// whole), unless the period stands apart as tokenised text writes it
// ("disease . without", as NFCorpus is distributed). Closing quotes and brackets stay with the sentence they close.
//
// Chunk packs consecutive sentences into chunks of at most maxTokens
// tokens, each chunk the longest run of sentences that fits, counting each
// candidate chunk as it would be stored, so the cap holds exactly even
// though BPE counts are not additive. A sentence longer than the cap is
// cut at spaces, or between CJK characters, and a word longer than the
// cap between characters.
//
// Chunking is linear in the length of the text, whatever its shape: a
// megabyte without a space (one "word" to the counter) or of one-character
// sentences chunks in a few seconds. Two things make it so. The end of
// each chunk is searched among the pieces that follow (sentences, words or
// characters) by probes aimed where a straight line through the counts so
// far reaches the cap, falling back to bisection when a guess did not
// halve the interval (lastFit), so each chunk costs five to seven counts
// of about its own length; bisecting over the whole remaining text, as
// Chunk once did, counted prefixes as long as the text for every chunk,
// which made a megabyte without spaces take minutes. And no text longer
// than the cap times the longest cl100k_base token (128 bytes) is ever
// counted, since it cannot fit (cost). TestChunkLinear holds the bytes
// counted to a small multiple of the input's. The segmenter is one pass.
//
// Invariants (for valid UTF-8, which is all medkb ever passes):
//   - Every piece returned by Sentences is a trimmed, non-empty substring of
//     its input, and the pieces in order cover every non-space character of
//     the input exactly once.
//   - Every chunk returned by Chunk counts at most maxTokens tokens (for
//     maxTokens >= MinChunkTokens), and the chunks, ignoring whitespace,
//     concatenate to the input ignoring whitespace.
//
// Caveats: the segmenter is a rule set, not a model. It splits "Dr. Li
// arrived. He..." correctly but will split after an unlisted abbreviation
// followed by a capitalised word ("Fig. 2" is listed, "Eq. 3" is not). Lang
// only tells Chinese-looking text from the rest; anything not dominated by
// CJK characters is reported as "en".
package text
