// Package clinical holds medkb's deterministic clinical rules: the evidence
// tier classifier, the key-entity extractor and the fidelity-preserving
// compression that gives T1 and T2 chunks their state B. Everything is a
// table or an ordered rule list, exported so that docs/ingest.md can show
// exactly what runs (WriteTables; TestWriteTables keeps the copy current).
//
// Tiers. Classify decides in a fixed order and says which step decided
// (Reason): an explicit tier on the document; else its type, looked up in
// TypeTable (EMR component types and publication types, English and
// Chinese, tolerant of case, hyphens and spacing: "X-ray", "xray", "X线");
// else the first rule of TextRules that fires on the text; else T4. Text
// rules are ordered from T1 to T4, so a text mixing a biopsy result and a
// complaint is T1: the most objective evidence present decides.
//
// Except where the text retells evidence rather than reports it. A history
// narrative (a 现病史 or 既往史, a chief complaint: see narrative.go) that
// quotes an earlier blood count, CT, examination or even biopsy result is
// T4, as its section is: the rules of tests, examinations and tissue
// results skip narratives (TextRule.SkipInNarrative) and the narrative rule
// fires instead. A documented allergy stays T1 wherever it is written. So
// does the procedure that takes a sample: an endoscopy report that takes
// biopsies (取活检2块, 标本送病理) is T2 until a clause states a tissue
// result; and 病理性杂音, 病理性Q波 name a sign, not a tissue.
//
// Literature types follow M-Eval's study-type ranking:
// meta-analyses and systematic reviews are T1, randomised and other
// clinical trials T2, cohort, case-control studies and case reports T3,
// expert opinion and consensus T4. Guidelines are not ranked there; medkb
// puts evidence-based guidelines in T1 because they are syntheses of
// systematic reviews. A consensus statement without a review is "expert
// opinion" (T4).
//
// Keys and state B. Keys lists the key entities of a text: values with
// units, dimensions, ranges, blood pressures, positive and negative
// findings, allergy statements; a reference range printed beside a value
// ("118g/L（130-175）") says what is normal, not what the patient has, and
// is none. Each key is a substring of the text as written, so whether a
// packed context still carries it is a strings.Contains.
//
// Compress gives T1 and T2 chunks their state B by deleting only what is
// positively known to carry no finding: whole administrative sentences
// (specimen receipt and labelling, sign-off, disclaimers, technique and
// dose, contact, follow-up advice: "Clinical correlation is recommended",
// "以上结果仅对本次送检标本负责"), a generic heading that opens the text
// ("Laboratory studies show:") and printed reference ranges. A sentence is
// administrative only when every word of it is in AdminVocabulary, a
// list of what may go rather than of what must stay, so a word the list
// does not know (a negation, a site, a specimen, a diagnosis, an
// organism, a drug, a reaction, a grade) keeps its sentence. Every other
// sentence stays word for word, so a critical phrase survives as a
// substring of state B, and F(B), the nEntity/nTotal of the packer's
// utility, is 1 for every state B. The earlier design cut clauses down
// to their keys and the words that name them and dropped keyless English
// sentences that did not state a result; since F(B) counts only keys, it
// looked lossless to the packer while it dropped allergies written
// without the word allergy, tissue diagnoses, severities, the site of a
// measurement and the pathogen of a culture. A compression that saves
// too little (StateB) is no state B, which is what most findings get:
// safety comes first, so there is little to cut in a text of findings.
// testdata/stateb_critical.txt holds the critical facts (English and
// Chinese) state B must keep.
//
// Questions. ReadQuestion reads a clinical question for retrieval: it
// blanks out its scaffolding (who and how it asks: 该病人的, 结果如何,
// "what was his", "please"), and, about one patient's record, the words
// that make it generic (诊断依据, 简述, "summarise the findings"); what is
// left is its topic. Concepts is a table of what clinicians ask about and
// the words records answer in: a blood count is 白细胞, 血红蛋白 and 血小板,
// kidney function 肌酐, 尿素氮 and eGFR, "how is his heart pumping" an
// ejection fraction; a question that names a concept is answered by any
// of its names or members (Concept.Mentions counts them, in one pass over
// the text for all of them: literalScan, which finds what terms.each finds
// one literal at a time, as a randomized test checks, and is hand-written
// because the Aho-Corasick library that ruleLiterals uses is about four
// times slower at it: see scan.go). The table is
// general medical vocabulary in English and Chinese, not a list of the
// benchmark's questions; what it does not know, a semantic embedder
// would have to bridge.
//
// Invariants:
//   - Classify returns a valid tier (T1..T4) for every input.
//   - Every key is a substring of its text; Keys has no repeats.
//   - Compress: nTotal == len(Keys(text)); b == "" or len(b) < len(text)
//     and nEntity == nTotal; b keeps every negation word of the text, and
//     every sentence that is not administrative word for word, but for
//     its reference ranges and a generic heading that opens the text.
//   - SegmentType(s) != "" implies TierOfType(SegmentType(s)) is the tier
//     Classify gives s by text rules.
//
// Measured (see gold_test.go and records_test.go; the numbers are logged
// by go test -v): against hand labels of real MedQA vignette sentences the
// text rules agree 93% on the sample used to write them and 86% on a
// sample labelled afterwards (83% before examination vocabulary was added
// with its misses in view); most misses are findings phrased without
// examination vocabulary ("Extremities are pale and cold"), which fall
// through to T4. On whole sections of ward records written as hospitals
// write them, headings removed, against the tier of the section's name:
// 99% of 286 Chinese sections (77% before the narrative, sampling and
// vocabulary rules, which were written from their misses), 97% of 110
// sections written afterwards (94% on their first, blind run), 97% of 32
// English ones; and 100% and 96% of the segments of the packer's Chinese
// benchmark cases with their types removed.
//
// Cost: rule terms are found by substring search on an ASCII-lower-cased
// copy, values with units by a hand-written scanner (values.go), and the
// few regular expressions run only near a literal they need, because Go's
// regular expressions are slow on long alternations. Classify, Keys and
// Compress each take tens of microseconds on an 80-word report
// (bench_test.go).
//
// Caveats: these are rules, not a model. Negation is handled only for
// allergies ("no known drug allergies" is not a T1 allergy statement, so a
// 过敏史 section that denies any allergy is T4 by its text, T1 by its type);
// a negated test ("no biopsy was done") still counts as the test. Text
// rules see the whole text, so classify sentences or chunks, not whole
// notes, when a note mixes kinds; a chunk that holds the end of a history
// and the start of a report reads as whichever its cues say. The tests of
// T2 come before the examination's T3, so an examination that quotes a
// bedside test (pH试纸, DAS28-ESR) is T2. State B saves little: most
// reports are findings from end to end, and an administrative sentence
// with a word the vocabulary does not know (a doctor's name without "Dr",
// a negation such as "No further action is required") stays.
package clinical
