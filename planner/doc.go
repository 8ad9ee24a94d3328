// Package planner turns a RETRIEVE statement into a plan and runs it:
// parse (package dsl) -> check and default (dsl.Check) -> bind against the
// store's graph (Build) -> plan values -> execution (Plan.Execute).
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
//	  -> Expand metapaths=["Disease -has_symptom-> Symptom"] hops=2* limit=20* when entities>=1* ...
//	    -> Fuse rrf k=60*
//	      -> Retrieve bm25 k=50* filter=(patient = "P001")
//	      -> Retrieve vector k=50* filter=(patient = "P001")
//
// Plan nodes are plain values; nothing runs while planning. Rewrites are
// named rules recorded in Plan.Rules in the order they fired: the WHERE
// filter is pushed into the BM25 query and into the vector scan (as a
// predicate over fixed-size slot attributes); conditions on meta.KEY,
// which slots do not carry, stay as a post-filter on the vector arm with
// tenfold over-fetching.
//
// Execution: both arms run concurrently; fusion keeps, per chunk, the rank
// and score it had in each arm (its explanation). rrf sums 1/(k+rank);
// weighted min-max normalises each arm's list and mixes them by alpha;
// docvote retrieves the top m chunks for each sentence of the query and
// ranks chunks by how many chunks of their document were retrieved (ties
// by rrf). Expansion fires only when the query text or the top fused chunks
// name enough entities of a metapath's start type; its paths become tier
// T3 evidence and boost the chunks that mention their entities (see
// graphBoost). PACK hands the candidates to package pack (EBM-Pack and its
// baselines) with the cosine of the query and each state's own vector (the
// packer applies the similarity floor), marking allergies and genetic
// results permanent, and marking weak vector-only hits pack.Candidate.Weak
// (no tier quota, no similarity floor) unless the query keeps one
// patient's records (see weakShare);
// without PACK the top LIMIT fused chunks are returned in full.
//
// The Result lists every item with its provenance, every dropped candidate
// with its reason, the context (cited text ready for a prompt, whose whole
// lines the budget pays for: see lineHead) and a source list outside
// the budget. EXPLAIN ANALYZE adds rows in/out and time per operator,
// whether expansion fired and on which anchors, and the packer's decisions.
package planner
