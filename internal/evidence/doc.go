// Package evidence measures whether packed context keeps the evidence a
// question needs: `medkb bench evidence`. RRCE (internal/bench/packbench) asks
// whether the key values of hand-marked signal segments survive a
// packing of a case's own segments; this bench asks the question a user
// asks, through the real store and query language, and counts whether
// the documents the answer rests on come back within the budget.
//
// # Formats
//
// A question file is JSON Lines, one question a line:
//
//	{"id": "sample-p001-trop", "question": "What was his troponin?", "patient": "P001", "kind": "targeted", "evidence": [{"doc": "P001-lab-06", "quote": "2.3 ng/mL"}, {"doc": "P001-ecg-05"}]}
//
// Its fields:
//
//   - "patient" is optional; when present the statement carries WHERE
//     patient = "..." (quoted with dsl.Quote).
//   - "kind" is "targeted" (asks for specific evidence: "what was the
//     troponin?", "肾功能怎么样？") or "generic" ("summarise the findings",
//     "简述该病人的诊断及诊断依据").
//   - Each evidence item names a document id and optionally a quote. It is
//     recalled when the packed result holds an item of that document
//     whose packed text (state A, state B, or cut short) contains the
//     quote, both compared after text.FoldKey: without white space
//     (except between two digits), full-width forms folded, lower case,
//     the fold RRCE matches its keys with. Without a quote, any packed
//     item of the document recalls it.
//
// ReadQuestions rejects, naming file:line and the reason, malformed
// JSON, a field the format does not know, a missing id, question or
// evidence, an unknown kind, an evidence item without a document, a
// quote of white space only, an item or an id given twice. Check, once
// the corpus is known, rejects a document not in it, a quote its
// document's text does not hold, and a document of another patient than
// the question's.
//
// The corpus is medkb JSON Lines documents, or RRCE case files turned
// into documents (CaseDocs: each segment a document with the segment's
// id, text, type and time and the case's id as patient; never its gold
// tier, which the classifier must find). Untyped drops every type and
// given tier, so that the text rules decide, as for records that come
// without EMR section types.
//
// # Metrics
//
// Run ingests the corpus into a temporary store (medkb.Open, Ingest) and,
// for each question, window W and strategy S, runs
//
//	RETRIEVE "<question>" [WHERE patient = "..."] PACK budget W strategy S
//
// through medkb.DB.Query, nothing else: whatever the planner does is what
// is measured. A question's recall is the share of its evidence items
// recalled; the report gives the mean over questions per strategy and
// window, over all questions, and by kind and by language (text.Lang of
// the question) when the questions mix them. A query that Exact refuses
// (pack.ErrTooLarge) is counted and left out of Exact's mean there.
//
// Beside the strategies, two oracles that know the evidence:
//
//   - oracle (whole text): the most evidence items that fit the window
//     when each evidence document is packed whole, all its chunks in full
//     text, each chunk costed as the planner costs a packed line
//     (planner.LineTokens: citation number, tier, date, text, newline).
//     The line number is the count of the question's evidence chunks,
//     the highest any packing of them writes (exact below ten). It is an
//     exact 0/1 knapsack over the question's evidence documents (items
//     of one document counted together). Evidence items that no single
//     chunk can recall (a quote across a chunk boundary) count for no
//     one, and are warned about.
//   - oracle (state B): the same with each chunk in state B where B keeps
//     every quote its full text holds and costs less.
//   - fits (whole text): the share of questions whose evidence documents
//     all fit the window whole at once.
//
// The oracles pack whole documents; a strategy may recall a quote from
// one chunk of a long document, or from a state B, for less, so for
// multi-chunk documents they are a reference, not a bound. For
// PubMedQA, where each document is one sentence quoted whole, they are a
// bound (TestPubMedQA checks it for ebm and fifo).
//
// # PubMedQA
//
// PubMedQA (ori_pqal.json, 1,000 expert-labelled abstracts) becomes a set
// in which the evidence is what the authors' conclusion rests on. Every
// sentence of every abstract's context paragraphs (text.Sentences) is
// one document "PMID/s<k>", k from 1 in reading order, time the YEAR,
// the paragraph's label (BACKGROUND, METHODS, RESULTS, ...) as meta
// "section", no patient, no type: every abstract is in the store, so the
// other 999 are the haystack of each question. The LONG_ANSWER, the
// conclusion, is never ingested; the evidence is derived from it:
//
//   - terms: the distinct tokens of bleve's English analyzer (lower
//     case, possessives, English stop words removed, Porter stems), less
//     single letters; numbers are terms.
//   - what the conclusion adds: its terms less the question's. The topic
//     words are restated by the aim and background sentences too, and
//     would make them the evidence (with the topic words in, 45 % of
//     the sentences picked were BACKGROUND, OBJECTIVE or PURPOSE
//     sentences and 26 % RESULTS; without them 36 % are RESULTS); they
//     would also hand retrieval evidence that repeats the question.
//   - greedy coverage, the extractive oracle of summarisation: repeatedly
//     take the sentence that brings the most of those terms not yet
//     covered (ties to the earlier), if it brings at least MinGain (3)
//     and they are at least MinShare (20 %) of the sentence's own terms
//     (a long sentence sharing three words by chance is not what a
//     conclusion rests on); at most MaxEvidence (3) sentences.
//   - each evidence sentence is quoted whole: only its full text recalls
//     it, not a stub the uniform baseline cut, nor a compression.
//
// Over the 1,000 abstracts (10,429 sentences) this gives 298 abstracts
// no evidence (their conclusion adds fewer than three terms to the
// question that one sentence holds: they ask nothing), 504 one
// sentence, 173 two and 25 three; TestPubMedQA pins these counts. A
// sample of n questions (--n, default 200) is taken evenly spaced in
// PMID order from the 702 with evidence.
//
// The rule is lexical and has the limits of one: a conclusion that
// rewords its results ("no impact on the perception of pain") finds the
// sentence that states the aim in the same words rather than the
// results table in other words, and about a third of the evidence
// sentences are still aims, background or methods.
//
// # Decisions
//
//   - Through the public API only: the bench builds a store as a user
//     would, so retrieval, fusion, the patient filter, the classifier
//     and the packer are all measured together.
//   - A quote, not a document, is the unit for targeted questions: a
//     packing that keeps the lab document but compresses away the value
//     asked for has not answered.
//   - The statement carries no "now" unless Config.Now says so, as a
//     user's query; the tests fix it so that time decay does not move
//     the golden table from one year to the next.
package evidence
