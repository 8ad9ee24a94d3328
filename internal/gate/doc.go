// Package gate is the information-completeness gate of ICA-RAG (seed
// 004): it reads a (long) input such as a patient note, labels each of
// its sentences A (critical for diagnosis), B (helps retrieval) or C
// (unimportant), scores how complete the input is, and decides whether
// retrieval is needed.
//
// # Labels
//
// The paper trains a BERT classifier on labels made by masking sentences
// and asking an LLM to diagnose; medkb ships no model, so its labeller is
// rules (Label), in this order:
//
//   - A: the sentence states objective evidence: a text rule of tier
//     T1-T3 fires (pathology, genetic test, allergy, imaging, ECG,
//     endoscopy, function test, laboratory, lab value, vital signs,
//     physical examination; package clinical), or it holds a key value
//     (a number with its unit, a blood pressure, a positive or negative
//     finding, an allergy statement: clinical.Keys). Diagnosis rests on
//     such evidence; the evidence tiers rank it as objective.
//   - B: the sentence names what to look for without settling it: a
//     complaint, history or narrative rule (tier T4) fires, it reads as a
//     chief complaint (a symptom and its duration), or it names what the
//     store knows (Names, given by the caller: knowledge-graph entities
//     of two or more characters, terms held by few of the store's
//     chunks), as the paper's annotation calls a sentence B when BM25
//     finds the right documents with it.
//   - C: anything else: demographics alone, administrative text, the
//     question's own scaffolding ("Which of the following is the most
//     likely diagnosis?").
//
// # Score
//
// The paper's completeness is I = (1/(alpha n)) sum_i (alpha [l_i=A] +
// beta [l_i=B] + gamma [l_i=C]) over the n sentences, with alpha n the
// score of an input of n A sentences. Read literally, one sentence ("troponin
// 2.3 ng/mL") scores 1 (complete) and would skip retrieval, and a note
// loses completeness when a sentence of small talk is removed. medkb
// normalises by alpha * max(n, MinUnits) instead: an input shorter than
// MinUnits sentences cannot be more complete than MinUnits A sentences
// would make it, and below that length removing any sentence never raises
// I. At n >= MinUnits this is the paper's formula. The weights are alpha
// = 1, beta = 0.5, gamma = 0.1 (the paper publishes none): a sentence
// that only helps retrieval is worth half a critical one, and unimportant
// text a little, so that masking any sentence lowers I.
//
// MinUnits and the thresholds theta1 (answer without retrieval) and
// theta2 (below it: retrieve, and warn that critical information is
// sparse) were chosen on data; see Calibrate and docs/gate.md.
package gate
