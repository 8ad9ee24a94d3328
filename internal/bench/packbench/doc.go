// Package packbench is the harness for the benchmark of the paper behind
// EBM-Pack, RRCE (the retention rate of critical evidence): how much
// critical evidence survives when a case's context is packed into a small
// window. It backs `medkb bench pack` and `medkb tune`, and is kept out of
// planner/pack so the packer carries no benchmark code.
//
// # Protocol
//
// A Case is a query and its signal segments (JSON Lines, ReadCases;
// MedQACases builds them from MedQA vignettes, USMLE or Chinese MCMLE,
// one sentence per segment). AddNoise adds 12 noise segments per signal
// segment: 40 % templated follow-up boilerplate in the case's language,
// 30 % fragments of other cases' segments, 30 % splices of two such
// fragments, all shuffled with a seed, so the input order FIFO sees is
// fixed and signal-blind. Prepare turns every segment into a pack.Candidate once:
// tier by clinical.Classify (or the gold tier, with Options.GoldTiers),
// state B by clinical.Compress for T1/T2, tokens by the cl100k counter,
// similarity as the cosine of hash-v1 vectors of the query and each
// state. Run then packs every case at every window with every strategy;
// only the packing is repeated, so the whole benchmark costs the
// preparation plus milliseconds per case.
//
// RRCE, the retention rate of critical evidence, is the share of T1/T2
// signal segments that survive: packed in a state whose text contains
// every one of the segment's keys (given in the case, else
// clinical.Keys). Which segments are T1/T2 is decided by the gold tier
// when the case gives one, else by classification, independently of the
// tier the packer was given. A segment without keys survives when it is
// packed at all.
//
// The report also gives Ebm's utility relative to Exact's, averaged over
// (case, window) pairs, and the k_min ablation (Ebm at 512 tokens). Tune
// runs the paper's grids, 35 ordered weight triples, then lambda x
// epsilon, then medkb's similarity floor (pack.Params.SimFloor); each
// stage's best stays best unless a later row beats it.
//
// # Answer accuracy
//
// A case with a question (MedQA's, or a case file's "question",
// "options" and "answer") can also be asked of a model. Prompts packs it
// with every strategy but Exact at every window and gives one prompt per
// packing, in the packed reading order, plus one with the case's full
// record, its own segments without noise; Answer sends them through an
// Asker (ChatAsker: an OpenAI-compatible chat endpoint, internal/hook),
// asking identical prompts once, reads the chosen option (ChosenOption)
// and reports accuracy and APR, accuracy over the full record's. A failed
// request stops the run rather than counting as a wrong answer.
//
// # Decisions
//
//   - Keys are looked for in the segment's own packed text, not anywhere
//     in the context: a value that also appears in another block (a
//     fragment of another case, a repeated lab line) must not count. Both
//     are compared without white space, with full-width forms folded and
//     in lower case (text.FoldKey): hand-written keys differ from the record
//     in spacing ("2.8 mg/dL" against "2.8mg/dL"), not in value.
//   - A case file with fields the format does not know still runs: they
//     are ignored with a warning, as are keys missing from their own
//     segment's text and a file without signal segments. Only what
//     cannot be read (bad JSON, a missing id or query, a bad tier or
//     date, a repeated id) is an error, with its file:line.
//   - MedQA's query is the whole question (vignette and final question)
//     plus the four options, the text a prompt would carry, without
//     marking the answer; QuestionOnly keeps the final question and the
//     options. The validation sample is the next N eligible vignettes in
//     the seeded order, so it never overlaps the test sample.
//   - Tune breaks RRCE ties by the retention of all signal segments, not
//     by utility, which grows with the weights being tuned.
//
// # Caveats
//
//   - hash-v1 cosines are lexical overlap, centred on 0; unrelated but
//     critical lines (a potassium value against a "most likely
//     diagnosis?" query) get cosines <= 0. Sim is (1 - floor) * cos +
//     floor * tokens / 20 (pack.Params.SimFloor): a low floor lets the
//     cosine separate a case's own lines from other cases' when the query
//     holds the vignette; a high one keeps tier first when it does not
//     (MedQASample.QuestionOnly). The default was chosen on the
//     validation sample over both query styles (docs/benchmarks.md, "The
//     similarity floor"). WithRecordInQuery gives a case file the first style.
//   - Exact maximises utility, so it never packs zero-utility blocks and
//     can retain fewer of them than Ebm, which fills spare room.
//   - MedQA vignettes carry no dates, so lambda has no effect on them.
package packbench
