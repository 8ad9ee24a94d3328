// Package bm25 is medkb's lexical index: BM25 over chunk texts, with the
// WHERE filters of the query language pushed into the search, on bleve's
// scorch engine.
//
// The index is derived. The bbolt store is the system of record; this
// index can always be rebuilt from it, and it records the store write
// sequence it reflects (Seq) so that the store can replay whatever it is
// missing after a crash.
//
// # Records
//
// Each chunk is one bleve document whose id is its ordinal as 16 lower-case
// hex digits: fixed width, so that the order of ids is the order of
// ordinals. Nothing is stored (results are ordinals and scores), no term
// vectors are kept (no phrases, no highlighting) and there is no catch-all
// _all field. The text field keeps frequencies and norms; the filter fields
// (tier, type, patient, source, evidence, lang, doc and meta.KEY) are
// keywords without frequencies; time is a numeric field of day numbers.
// Absent values (empty strings, TierNone, NoDay) are not indexed.
//
// Apply builds these documents by hand rather than through bleve's
// reflective mapping, which is faster and exact about options. The index
// mapping still declares the same schema, and a test checks that the two
// agree; at query time the mapping supplies the scoring model and the text
// analyzer.
//
// # Analysis
//
// One analyzer serves English and Chinese: unicode word segmentation,
// cjk_width (full-width Latin to ASCII), lower case, English possessives
// and stop words, cjk_bigram (a run of Han characters becomes its
// overlapping bigrams, so 发热 finds 患者发热 but 发烧 does not), then the
// Porter stemmer, which leaves CJK bigrams alone. Snowball English scored
// the same on NFCorpus (nDCG@10 0.3254 against 0.3255). Queries go through
// the same analyzer and their terms are OR-ed.
//
// The word segmentation is bleve's unicode tokenizer (UAX#29), which the
// mapping names; the analyzers that index a batch (memoAnalyzer, below)
// reach it through asciiTokenizer. That segmenter is a general Unicode
// state machine and was the largest single cost of analysis at ingest
// (about 9% of ingest CPU), while most medical text is pure ASCII, where
// the word rules come down to a few byte classes (letters, digits, _,
// and . ' : , ; joining two letters or two digits). asciiTokenizer
// applies those rules to ASCII input and hands any input with another
// byte to the unicode tokenizer, so the tokens are identical: the same
// terms, offsets, positions and types, so an index needs no new schema.
// Tests hold it to bleve's
// tokenizer field for field on every string of up to five characters
// drawn from one character of each class, on random strings heavy in
// joiners, quotes, line breaks and control characters, on the
// repository's texts and NFCorpus, and in a fuzz target that CI runs.
// On NFCorpus it tokenizes four to five times faster and allocates 28%
// less (BenchmarkTokenizer), which makes the whole analyzer about twice
// as fast (BenchmarkTextAnalyzer).
//
// Apply analyses a batch on all CPUs (ApplyBatches analyses its next
// batch while scorch writes two), each goroutine with a copy of the
// analyzer whose Porter stemmer remembers the stems of the terms it has
// seen and whose width filter passes ASCII terms by: the same tokens, in
// less than two thirds of the time.
//
// The planner indexes each chunk with its document's title and type in
// front of its text (base.Doc.Heading). Terms analyses a text as Search
// does; QueryTerms gives each term's document frequency, looked up in
// the segments' term dictionaries as Search looks its terms up (through
// a pooled scorer, without its score arrays), which the planner's
// relevance stage turns into idf weights; Holds tells, from the
// postings, which chunks hold which terms, skipping to the chunks asked
// about, so that the relevance stage does not re-analyse candidate texts
// (about 50 us a chunk).
//
// # Scoring
//
// bleve 2.6's "bm25" model departs from textbook BM25 in four ways:
//
//   - avgdl is ceil(distinct terms / documents), a vocabulary ratio rather
//     than a length: 5 on NFCorpus where documents average 150 tokens, 2
//     on 40-word chunks of it. The length penalty then grows steep. This
//     package counts analysed tokens at Apply (lengthStats, stored with
//     seq) and hands bleve the true mean at search time. On NFCorpus split
//     into 40-word chunks that lifts nDCG@10 from 0.300 to 0.314 (test
//     split) and from 0.270 to 0.288 (dev); on whole documents it changes
//     nothing.
//   - tf is sqrt(term frequency).
//   - a query's terms are weighted by idf twice (once in the term score,
//     once through the Lucene-style query normalisation). Re-weighting to a
//     single idf scored slightly worse on NFCorpus, so it is left alone.
//   - a coordination factor multiplies a chunk's score by the share of
//     query terms it contains.
//
// Scores are comparable within one query, not across queries.
//
// # Top k
//
// bleve scores every posting of every query term (it has no top-k
// pruning) at about 150-250 ns a posting, so a query holding a few common
// terms ("review", "patient", "history": 10-17k of 100k chunks each) took
// 5-15 ms where one of rare terms took 0.3 ms: that was BM25's p99. So
// an unfiltered query of at most ten terms (bleve's disjunction switches
// to a heap beyond ten, which sums in another order) is scored here,
// straight from the segments' postings, term at a time into an array of
// partial sums, with bleve's arithmetic operation for operation and in
// bleve's order (terms by document frequency, query norm, score, sum,
// coordination factor): the scores are bit-equal to bleve's, and
// TestTopKAgreesWithBleve holds them so. The part of a term's score that
// depends only on the chunk's length (a square root and two divisions,
// the same operations) is cached by zapx's norm bits, which are the
// length. The postings are read through zapx v17's own types (the
// format scorch writes in bleve 2.6), whose accessors then inline,
// rather than through scorch's segment interfaces: 7% fewer instructions
// a query; an index holding segments of an older format is left to
// bleve. A filter is applied as the set of chunks it admits, listed
// first by bleve's unscored filter searcher, when it is known to be
// selective: an = or IN condition on a keyword field
// whose values at most a quarter of the chunks hold (a patient, a
// document). A broad filter (two tiers of four, a time range alone) would
// cost more to list than bleve's check of each chunk that holds a query
// term, so such queries, longer ones and an index without length
// statistics still go through bleve. bleve's FilteringSearcher scores
// every posting and then checks the filter, so a filter never made a
// search cheaper there. Either way a hit says which query terms it holds
// (Hit.Holds; through bleve from Holds), which spares the planner's
// relevance stage a second read of the postings.
//
// Terms are read rarest first. Before each further term, if the chunks
// seen so far number at least k and fewer than the postings left, it
// computes theta, the k-th best score among them; a chunk's score only
// grows as terms are added, so at least k chunks end at theta or above.
// A chunk not yet seen holds only terms still to read, so it scores less
// than their share of the query (the coordination factor) times the sum
// of their bounds, where a term's bound is idf x k1 x its query weight:
// bleve's tf x k1 / (tf + k1 x length part) stays below k1 whatever the
// term frequency and the length. When that is below theta, no unseen chunk
// can enter the top k, or tie with it, and the remaining terms are read
// only for the chunks seen whose own bound (partial sum plus the bounds of
// the terms left, at the coordination factor they would reach) still
// reaches theta, which is recomputed before each term; the others are
// dropped. A segment's postings are skipped through to those chunks when
// they are fewer than a quarter of them, read in full otherwise.
//
// What is pruned is therefore only what provably cannot be in the top k:
// the result is the exhaustive top k, chunk for chunk and bit for bit. In
// particular a chunk holding a rare query term (a drug name, an allergen, a
// lab value) is never lost to pruning: rare terms are read first and in
// full, and a chunk holding one is dropped only when k others already
// outscore everything it could still reach. Common terms that cannot
// change the top k are the ones left unread; the rarer a query's rarest
// terms, the more of the common ones go unread. Queries made only of
// common terms ("breast cancer and diet" on the NFCorpus-resampled bench
// index) gain least, since nothing is known to be out of reach until the
// last term; they still gain from reading postings directly (2-3x
// cheaper a posting than through bleve's searchers).
//
// # Ties
//
// Search breaks equal scores by ordinal. The scorer above knows every
// chunk's score, so it resolves to ordinals the chunks tied with the k-th
// and no others. Through bleve, which orders equal scores by internal
// document number (which changes when segments merge), sorting on the id
// is costly (it loads the id of every match), so Search fetches 2k hits by
// score and orders the group tied with the k-th by ordinal; only when that
// group runs past 2k does it run a second pass sorted by id. On 100k
// synthetic chunks a third of title queries tie at the cut, all within the
// window.
//
// # Filters
//
// A base.Filter becomes an unscored bleve filter clause: filtered chunks
// keep exactly the scores they have without the filter. The semantics are
// base.Cond's (internal/base/filter.go); this package only translates
// them, and TestFiltersAgreeWithBase holds the translation to them. = and
// IN are term queries on the bound, canonical values, ordering operators
// numeric ranges over the bound days (time only), != a must-not clause, so
// a chunk without the field passes != ("patient != P001" keeps literature
// chunks that have no patient) and fails every other operator. Nothing is
// parsed here: a condition base.BindCond did not make (unknown field,
// "meta." without a key, ordering on a keyword, wrong number of values,
// tier or time values not bound) is base.ErrBadCond. Empty query text is
// ErrEmptyQuery even with filters; text that analyses to no term (only
// stop words) matches nothing, where bleve left alone would return every
// chunk the filter admits.
//
// # Durability
//
// Apply writes deletes, adds, seq and the length statistics in one scorch
// batch, and scorch persists a batch as one snapshot (segment file fsynced,
// then a bbolt commit naming it), so the recorded seq always describes the
// content exactly. Apply returns once the batch is persisted (scorch's
// unsafe_batch stays off). unsafe_batch would keep seq and content in
// agreement too, since it persists whole snapshots later, but it gained
// at most about 10% end to end here (within the noise of a shared
// machine), abandons unpersisted batches on Close, and puts no bound on
// memory if ingest outruns the persister.
//
// ApplyBatches, for a write too large for one batch, writes the documents
// in bounded batches, two at a time (scorch builds a batch's segment on
// one goroutine, so two batches keep two cores busy and share fsyncs),
// and then records seq, the statistics and the deletes in a last batch of
// their own. Until that last batch the index reports the seq it had, with
// part of the write's documents in it; replaying the write, as the next
// open does, indexes them again (upserts) and counts their lengths once.
//
// A new index is built in dir+".creating" and renamed into place, so a
// crash during creation leaves no half-made index.
//
// An Apply that fails (a full disk) leaves the persisted index at the
// previous batch, but scorch keeps the batch in memory, reports its seq and
// retries the write in the background; the caller closes the index, and
// the next Open sees exactly what was persisted.
//
// # Damage
//
// The index is derived, so damage is repaired by rebuilding it from the
// store, never by patching it. bleve reports a missing segment or root.bolt,
// a truncated root.bolt or index_meta.json as an Open error; a segment
// garbled so that bleve panics while loading it becomes ErrCorrupt (Open,
// Search, QueryTerms, Holds, Ords and Apply recover bleve's panics). A
// segment garbled where Open does not look is found by Verify, which reads
// every segment of the current snapshot whole and checks the CRC-32 of its
// footer: about 12 ms for 33 MB warm, too slow to pay on every open, so
// only `medkb check` pays it. The merger may delete a segment's file
// while Verify reads the snapshot that listed it; a file gone that the
// current snapshot no longer names is not damage, and Verify looks again. Rebuild fills a new index in dir+".rebuilding"
// and swaps it for dir with two renames (dir to dir+".replaced", the new
// one to dir), so the damaged index stays as it was until the new one is
// whole; a read-write Open removes what an interrupted Rebuild left.
//
// # Locks
//
// scorch keeps its snapshots in root.bolt and bbolt takes an flock on it
// for as long as the index is open: exclusive for a writer, shared for a
// read-only open. A read-only Open therefore fails while a writer holds
// the index, a writer cannot open while readers do, and readers share.
// flock also separates two opens in one process. Open waits up to
// Options.LockTimeout (1s) and then returns store.ErrLocked, where bbolt alone
// would wait forever. A read-only index sees the snapshot it opened and
// never changes.
//
// # Caveats
//
//   - The scorer keeps its partial sums in arrays indexed by chunk
//     number, 11 bytes and a bit a chunk (deleted ones included) for
//     each search running at once (QueryTerms borrows a scorer too, but
//     sizes no arrays), plus 8 KB of cached length norms,
//     reused through a pool: 1.1 MB for 100k chunks. A pooled scorer
//     also keeps the snapshot it last read, with its segments' term
//     dictionaries and the postings lists it looked up, so that the next
//     search of an unchanged index skips opening them; they are let go
//     when it is reused on a newer snapshot or the pool is emptied by
//     the garbage collector.
//   - Apply calls are serialised; Search runs concurrently with them and
//     sees each batch entirely or not at all.
//   - The length statistics count every chunk ever added, deleted ones
//     included: an estimate of the mean, good while the corpus changes
//     slowly. A rebuild resets it.
//   - Ords holds all ordinals in memory to sort them.
//   - Compact merges to one segment, which pays off mostly for filtered
//     searches; the background merger left 12 segments for 100k chunks.
//   - Changing the mapping, the analyzer or the id encoding needs a new
//     schemaVersion: older indexes then fail to open with ErrIncompatible
//     and must be rebuilt.
//   - When bleve panics inside Open, the half-opened root.bolt keeps its
//     file lock until the process exits: a second Open of that directory in
//     the same process waits and fails with store.ErrLocked. Rebuild works beside
//     it and renames it away.
//   - scorch logs (through the standard logger) each snapshot it cannot
//     load before it tries an older one; a damaged index prints such lines
//     on stderr when opened.
package bm25
