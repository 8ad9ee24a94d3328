// Package planner turns a RETRIEVE statement into a plan and runs it:
// parse (package dsl) -> check and default (dsl.Check) -> bind against the
// store's graph and the embedder's arm weight (Build, which returns the
// finished plan) -> plan values -> execution (Plan.Execute).
//
// A statement such as
//
//	RETRIEVE "chest pain, troponin 2.3 ng/mL" WHERE patient = "P001"
//	  FUSE rrf EXPAND metapath "Disease -has_symptom-> Symptom"
//	  PACK budget 512 kmin 1
//
// becomes this operator tree (EXPLAIN; * marks defaults):
//
//	-> Pack strategy=ebm* budget=512 kmin=1 weights=(2.5, 2.5, 1, 1)* ...
//	  -> Dedup cosine>=0.95 or shingles>=0.8 ...
//	    -> Relevance evidence>=0.15 on-topic>=0.5 ...
//	      -> Expand metapaths=["Disease -has_symptom-> Symptom"] hops=2* limit=20* when entities>=1* ...
//	        -> Fuse rrf k=60*
//	          -> Retrieve bm25 k=50* filter=(patient = "P001")
//	          -> Retrieve vector k=50* scan=int8+rescore 200* filter=(patient = "P001")
//
// Plan nodes are plain values; nothing runs while planning. Rewrites are
// named rules recorded in Plan.Rules in the order they fired: the WHERE
// filter is pushed into the BM25 query and into the vector scan (as a
// predicate over fixed-size slot attributes); conditions on meta.KEY,
// which slots do not carry, stay as a post-filter on the vector arm with
// tenfold over-fetching.
//
// The arms search through a Backend (Env.Backend): by default the
// store's own bleve index and vector slab, as above; another backend
// (a Weaviate cluster, see package index/weaviate) takes both arms with
// the whole filter, meta.KEY included, so no post-filter is planned, and
// EXPLAIN names it on each Retrieve line ("on=weaviate (flat, 3
// replicas)"). Everything after retrieval is the same whatever the
// backend.
//
// Execution: both arms run concurrently; fusion keeps, per chunk, the rank
// and score it had in each arm (its explanation). rrf sums 1/(k+rank);
// weighted min-max normalises each arm's list and mixes them by alpha
// (alpha*N(vector) + (1-alpha)*N(bm25)). weighted(alpha=auto) chooses
// alpha per query from its entity density d, the share of the query's
// distinct analysed terms that are domain terms (the store holds them, in
// at most 1 % of its chunks: names of drugs, nutrients, diseases rather
// than general words): alpha = clamp(0.2 - 0.1*d, 0, 1), rounded to a
// tenth, so a query of exact entity names leans further on BM25. The
// constants were chosen on the NFCorpus dev split; on NFCorpus the density
// moves nDCG@10 by less than its noise (docs/benchmarks.md), and on a store
// of under 100 chunks no term is rare enough to count, so alpha is 0.2.
// EXPLAIN ANALYZE reports the density and the alpha chosen;
// docvote (docvote.go, ICA-RAG) labels the query's sentences as GATE does
// and lets only the A and B sentences vote: each retrieves its top m
// chunks with the voting arms (BM25 by default), a document scores its
// distinct chunks retrieved (ties by rrf), and the top k documents come
// whole, every chunk in reading order. GATE (gate.go, package
// internal/gate) runs before retrieval: it labels each sentence A, B or C,
// scores the text's completeness and answers without retrieval at or
// above theta1, except when a WHERE condition names patients, whose
// record the text does not hold. Expansion fires only when the query text or the top fused chunks
// name enough entities of a metapath's start type (the fused chunks were
// retrieved under WHERE, so under a patient filter no other patient's
// report is read for anchors); linking skips names nested in longer ones
// and one-character names inside words, and EXPLAIN ANALYZE lists what it
// skipped (graph.LinkReport). Paths are ranked by the query's anchors
// they join (a chain between two entities the query names first, found
// past the LIMIT best by graph.ExpandOptions.Join), then by the entities
// the query and top chunks name, then by degree product (rankPaths); the
// i-th path scores as the i-th fused chunk, a joining path as the best
// (pathScore), so that without PACK paths and chunks alternate and paths
// reach LIMIT. A path from an entity the query names is relevant even
// when no chunk covers the topic (a store of the graph alone). Paths read
// as sentences in the query's language (graph.Path.TextIn), become tier
// T3 evidence and boost the chunks that mention their entities (see
// graphBoost). BM25 indexes each chunk with its document's title and type
// before its text (base.Doc.Heading), so "胃镜看到了什么" finds a report
// typed 胃镜 whose text never says so.
//
// Relevance (judge, relevance.go and topic.go) then decides which
// candidates are evidence. The question is read as a clinical question
// (clinical.ReadQuestion): its scaffolding ("该病人的…结果如何", "what was
// his …") is set aside, clinical concepts it names ("肾功能", "heart
// pumping") are answered by the words records use (肌酐, ejection
// fraction), and what is left is its topic, each term weighed by its idf
// in the store. A chunk's evidence is the share of the topic it holds
// (from the BM25 postings), or its cosine weighted by the embedder's
// trust, or graph support; below 0.15 it is no evidence: dropped as
// "not-relevant", never packed, never listed by LIMIT. A question the
// store does not know ("how to adjust bicycle brakes" among clinical
// records) finds nothing, and the Result says why (Relevance.Note, also in
// EXPLAIN ANALYZE and on the command line). Within one patient's record
// (WHERE patient = "..."), a generic question ("简述该病人的诊断及诊断依据",
// "summarise the findings") reads the whole record; a specific one packs
// what it found first, and the rest of the record only fills the room
// left (context). The relevant candidates' relevance, from BM25's score
// and the concepts' mentions, normalised by the best, becomes
// pack.Candidate.Relevance, which EBM-Pack weighs as R^4 (planner/pack,
// "Relevance"). Across the store kmin defaults to 0
// (RuleStoreKmin): the tier quota guarantees one record's tiers.
//
// RERANK (rerank.go) then sends the text of the first top chunks, with
// the query text, to Env.Reranker (a cross-encoder server, configured per
// store or process; without one a statement with RERANK fails with
// ErrNoReranker, though EXPLAIN still shows its plan) and puts them
// first in descending rerank score, ties in their earlier order; graph
// paths (sentences the linker wrote, not text a reranker was trained on)
// and the chunks beyond top follow in their earlier order. Each
// reranked item keeps its score (Provenance.Rerank). The order is what a
// ranked list without PACK returns and what PACK reads as the input order
// (pack.Candidate.Rank: the fifo baseline's order, the last tie-breaker);
// EBM-Pack still chooses by its utility, whose relevance is the
// relevance stage's, and Dedup keeps the copy of the best fused score.
//
// Dedup (dedup.go, package internal/dedup) then clears the candidates
// that reach PACK of near-duplicates: copy-forward text (one troponin
// line in three notes took 57 % of a budget) is packed once. Two
// candidates are duplicates when they share tier, patient and values
// (every number with its unit, so troponin 2.3 and 0.4 stay two) and
// their vectors' cosine is >= 0.95 (seed 001's threshold; with a neural
// embedder it catches paraphrased copies, with the hash embedder it is
// lexical too) or their word 3-shingles overlap by Jaccard >= 0.8 (a copy
// with a header or signature added, which moves a hash cosine more; no
// vector needed). The best-ranked copy stays, or the newest copy scored
// within 2 % of it; the others are dropped as "duplicate", naming the
// kept copy and the test. Among the rest, a candidate whose mean cosine
// to the others is a low outlier (modified z-score > 3.5 by median and
// MAD, which outliers do not move) is flagged (Provenance.Outlier), not
// dropped. On the packing benchmark with 1-3 copies of signal segments
// injected per case, Dedup restores RRCE to at least its level without
// copies (docs/benchmarks.md), so it is always on under PACK; a ranked
// list without PACK is left as retrieved.
//
// Dedup and PACK share the candidates' vectors, read once in one batch
// (loadVectors): an int8 store reads them from its file, where one
// sorted batch costs a fraction of a read per candidate per stage. The
// batch is read ahead, on another goroutine while the chunks load and
// the relevance stage judges: it reads every fused hit's vector, about
// twice the candidates that reach Dedup, since which reach it is known
// only after judging; the extra reads (some 0.15 ms of one core) take
// the read (about 0.3 ms) off the query's path. Likewise the question's
// topic is weighed by its terms' statistics while the arms retrieve.
// Both finish before a query returns, whatever its outcome (settle).
//
// PACK hands the candidates to package pack (EBM-Pack and its baselines)
// with the cosine of the query and each state's own vector (the packer
// applies the similarity floor) and marks allergies and genetic results
// permanent. EBM-Pack packs in two phases, the relevant evidence and then
// the record's context in the room left (packing.go); the baselines pack
// everything the relevance stage passed at once. Without PACK the top
// LIMIT relevant chunks are returned in full, in fused order. The tier
// quota is the packer's to count; the planner adds each tier's context
// blocks to its report, and after a LIMIT that cuts packed items has the
// packer count it again (pack.Recount) over those left.
//
// The Result lists every item with its provenance, every dropped candidate
// with its reason, the context (cited text ready for a prompt, whose whole
// lines the budget pays for: see lineHead) and a source list outside
// the budget. EXPLAIN ANALYZE adds rows in/out and time per operator,
// whether expansion fired and on which anchors, and the packer's decisions.
package planner
