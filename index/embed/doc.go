// Package embed turns text into vectors for medkb's dense retrieval arm.
//
// An Embedder has a Name and a Dim that the store records when it is
// built; a store refuses to mix vectors of another embedder, because
// vectors of different models (or of different dimensions of the same
// model) are not comparable. Every vector an Embedder returns is
// L2-normalised (vector.Normalize; this package imports vector, never the
// reverse), so the vector index can rank by dot product.
//
// # hash-v1, the built-in embedder
//
// NewHash needs no model, no network and no data: it is signed feature
// hashing ("the hashing trick") of features a lexical retriever would use,
// so it is deterministic across runs, processes and machines, and fast
// enough to embed a whole corpus at ingest (tens of thousands of short
// documents a second on two cores). For each text:
//
//   - Text is lowercased and split into runs of word characters (letters,
//     digits and marks of any script without CJK) and runs of CJK
//     characters (Han, kana, Hangul); everything else separates.
//   - English words: a short stopword list is skipped (negations are kept:
//     they matter in clinical text); the rest give a unigram after a light
//     plural normalisation ("tumors" and "tumor" meet), a bigram with the
//     previous content word, and, for words of four bytes or more,
//     character trigrams with word-boundary markers (" tu", "tum", ...,
//     "or "), which let inflections and spelling variants overlap.
//   - CJK runs: character unigrams and bigrams, skipping function
//     characters such as 的 and 了. Bigrams carry most of the weight,
//     standing in for the words a segmenter would find.
//   - Each feature is hashed (FNV-1a with a per-kind seed, then the
//     MurmurHash3 finaliser) to a coordinate and a sign, with weight
//     class-weight*(1+ln tf); the vector is then normalised.
//
// On NFCorpus (3,162 medical abstracts, 323 judged title queries) hash-v1
// at 384 dimensions reaches nDCG@10 = 0.216 as the only retriever, against
// about 0.32 for BM25 and 0.01 for random order; at 768 dimensions, 0.259
// (fewer collisions). It captures shared words and characters, not
// synonyms: it complements BM25 in rank fusion rather than replacing a
// neural model.
//
// The name pins the algorithm. Any change to tokenisation, stemming,
// stopwords, features, weights or hashing moves existing vectors and must
// ship under a new name ("hash-v2"); testdata/hash-v1.golden fails on
// such changes.
//
// # OpenAI-compatible servers
//
// NewOpenAI is a client for POST {BaseURL}/v1/embeddings as served by
// OpenAI, Ollama, vLLM, Hugging Face TEI and others. It sends batches
// (64 texts by default), one request at a time; retries 429, 5xx and
// network errors with exponential backoff (honouring Retry-After); bounds
// each request with a timeout; puts rows back in input order by their
// "index"; and checks every vector's dimension (ErrDimension) and
// finiteness. Server errors come back as *StatusError carrying the
// server's own message.
//
// # Caveats
//
//   - hash-v1 has no notion of meaning beyond surface overlap: "myocardial
//     infarction" and "heart attack" do not meet.
//   - Its English rules (stopwords, plural stripping) are applied to every
//     Latin-script word; other languages get unigrams and trigrams that
//     work, without tuned stopwords.
//   - A text with no features (empty, punctuation, only stopwords) gets
//     the zero vector: it scores 0 against every query.
//   - NewOpenAI does not truncate long texts; a server that rejects them
//     answers 400 and the batch fails with its message.
package embed
