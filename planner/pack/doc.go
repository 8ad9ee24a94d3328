// Package pack is EBM-Pack, the last stage of a medkb query: given the
// retrieved blocks and a token budget, it decides which evidence enters
// the LLM's context, in which form, and says why for every block. It
// follows the EBM-Pack paper, with the departures listed below.
//
// # The problem
//
// Each candidate block has an evidence tier (T1 gold standard ... T4
// subjective), an optional date, and one or two states: A, the full text,
// and for T1/T2 blocks B, a fidelity-preserving compression that keeps
// every finding (internal/clinical drops only administrative sentences and
// reference ranges). State j of block i is worth
//
//	U = F(j) * W(tier) * Sim * exp(-lambda * dt)
//	F(A) = 1, F(B) = min(1, NEntity/NTotal + epsilon)   (1 when NTotal = 0)
//	Sim = R^p * ((1 - floor) * cos + floor * C / 20), cos in [0, 1]
//
// with dt in years before Params.Now (0 for undated or future blocks), R
// the block's relevance (Candidate.Relevance) and p Params.RelevancePower
// (R^p is 1 when p is 0). Packing picks at most one state per block, at
// most Budget tokens in total, and at least min(Kmin, N_t) blocks of
// every tier t present: a multiple-choice knapsack with a quota. The quota
// covers the blocks at least QuotaRelevance (half) as relevant as the
// most relevant one.
//
// # Relevance
//
// The paper's Sim is the cosine of the query and the block: what the
// block has to do with the question. With a lexical embedder that signal
// is faint (the cosine of a troponin report and "troponin" is 0.06, that
// of an unrelated allergy note 0.05), and the similarity floor below paid
// every token of a tier alike, so density barely depended on the question
// and the tier weights decided: the troponin report lost to a lipid panel
// and a telephone note. The planner now measures relevance from every
// signal retrieval has (BM25's score, the share of the question's topic
// and clinical concepts a chunk holds, the vector cosine weighted by the
// embedder's trust, graph support; planner/relevance.go) and hands it in
// as R, normalised so that the most relevant block has 1. Sim is scaled
// by R^p: relevance says how much of each token answers the question.
// p = 4 in queries (QueryRelevancePower): a block three quarters as
// relevant as the best is worth a third as much per token, one half as
// relevant a sixteenth, so the tier weights (2.5 against 1) order only
// blocks within a fifth of each other's relevance. Smaller powers let
// the tiers win on PubMedQA: squared, an unrelated T2 sentence ("Only 3
// surgeons (10%) considered laparoscopy ...") outranked the T4 sentence
// that answered, and EBM fell below the FIFO baseline at 128 and 512
// tokens; at p = 4 it is at or above every baseline at every window
// (docs/benchmarks.md, "Evidence recall"). The RRCE benchmark, whose
// candidates carry
// no retrieval signals, packs with p = 0: the paper's formula.
//
// The quota follows relevance too: a tier's place is for evidence that
// answers the question, and a block of marginal relevance does not earn
// one by its tier alone (QuotaRelevance).
//
// The quota is counted in one place, the packer's (tallyQuota): Result.Quota
// says, per tier, how many blocks the quota counts and how many of them
// were packed (Item.InQuota). A caller that cuts items afterwards (the
// planner's LIMIT) asks Recount rather than counting again itself.
//
// # Strategies
//
// Ebm is the paper's greedy with four additions of medkb's, marked below;
// Paper is the same greedy without them. All states go into one pool
// sorted by density U/C (ties: higher U, then Rank, then ID, so the order
// is total and packing deterministic). A quota pass walks the pool once
// per tier, T1 first, taking each tier's densest blocks that still fit, in
// the densest state that fits, until the tier has its Kmin. (Addition 4:
// Ebm walks the pool once for all tiers, taking each block whose tier
// still wants one in density order, so that when the budget cannot hold
// every quota block, the ones that answer the question better come first:
// the paper's T1-first pass let a long, weakly relevant pathology report
// take the room of the endoscopy report a question asked for.) (Addition 1:
// when that leaves a quota place empty for lack of budget, the pass runs
// again with every quota block in its cheapest state, and that try is kept
// if it fills more places.) Then the density walk takes every state whose
// block is not yet chosen and that fits. (Addition 2: an upgrade pass
// moves blocks from state B to A while the extra tokens fit.)
//
// Addition 3: medkb prices the quota, which the paper does not. The
// paper's quota pass picks a tier's densest block whatever its length, but
// a T3 or T4 block is a fraction as dense as the T1/T2 states it
// displaces: what a quota block really costs is its tokens. The first
// state the density walk skipped for budget says roughly what a token is
// worth at the margin (its density lambda, close to the break item of the
// knapsack's LP relaxation); the packing is redone with each quota place
// filled by the state with the highest U - lambda * C among its tier's
// blocks that fit (a Lagrangian choice), then the same walk and upgrade.
// The new packing is kept when it meets every quota the first one met and
// fills more quota places, or as many with a higher utility. On the
// benchmarks the paper's greedy reaches 0.925-0.997 of the exact optimum's
// utility and EBM-Pack 0.985-0.998 (docs/benchmarks.md, "The priced quota").
//
// Paper, the quota pass and the density walk alone, is there to measure
// what the additions bring (docs/benchmarks.md, the MedQA table).
//
// Cost: two sorts of small integers (at most 2n states by density, then
// the packed blocks in reading order; sortByKey), a few linear walks (the
// priced quota pass filters the pool once per tier, then scans that
// tier's options once per quota place), no maps. A Packer reuses that
// scratch memory across calls.
//
// Exact solves the same problem optimally by dynamic programming: tiers
// one after another, each over (budget used, quota progress capped at
// Kmin), then folded into a per-budget carry. The value is compared
// lexicographically, fewest unmet quota places first and utility second,
// so when every quota can be met the optimum meets them, and when not,
// Exact meets as many as it can and then maximises utility (the greedy
// never beats it in that order; the tests check this against brute
// force). Its table has blocks x (budget+1) x (quota levels) cells; past
// MaxExactCells it returns ErrTooLarge rather than run for seconds. The
// budget is first capped at what the candidates could use at most.
//
// FIFO, Semantic and Uniform are the paper's baselines, state A only.
// FIFO (by Rank) and Semantic (by Sim) stop at the first block that does
// not fit (the paper's truncation; later blocks are "truncated", not
// tried). Uniform keeps the first r = Budget/total of every block's words
// (one word per CJK character), costs the cut text with Params.Count and
// shrinks r until the cut texts fit, so a tokenizer that disagrees with
// the word count cannot overflow the budget. Its utility is the full
// state's scaled by the share of tokens kept: an estimate, since the cut
// text has no vector.
//
// PackContext bounds a packing in time as well: Exact looks at the
// context after each block's row of its table (at most MaxExactCells
// cells, 0.1-0.2 s, in all), Uniform before each call of Params.Count
// (the caller's tokenizer, which can be slow), and every strategy
// returns the context's error, not a partial result, once it has ended.
//
// # Invariants
//
// For every strategy: TokensUsed <= Budget; at most one state per block;
// every candidate appears exactly once, in Items or in Dropped; Items are
// in reading order (tier, newest first with undated last, ID), Dropped in
// candidate order; Quota lists every tier present with Want =
// min(Kmin, present) and Got counted from Items, and QuotaMet is false
// whenever any tier falls short (only Ebm and Exact try to meet it; the
// baselines report it). Pack never modifies its input.
//
// # Decisions and caveats
//
//   - cos is the caller's cosine of the state and the query; a negative
//     one counts as 0 (unrelated is worth nothing more, not less). The
//     similarity floor (Params.SimFloor) is medkb's, not the paper's: the
//     paper's sentence encoder gives unrelated medical texts small
//     positive cosines of its own, the built-in lexical embedder does not.
//     It is paid per token of the state (C, FloorTokens = 20), so it adds
//     one density per tier instead of favouring the shortest blocks. With
//     floor 0, zero-utility blocks still fill spare room in Ebm (the
//     paper's walk takes what fits) but never in Exact (they add nothing).
//   - A state with 0 tokens is never packed; a block with no non-empty
//     state is dropped as "empty" and does not count as present for the
//     quota.
//   - Kmin 0 is a real value (the paper's ablation), so Params has no
//     "zero means default" for it: start from DefaultParams. All-zero
//     Weights do mean DefaultWeights, since they would zero every utility.
//   - DefaultLambda is 0.02 per year, not the paper's 5.0: the paper tuned
//     lambda on undated MedQA vignettes, and 5 per year would erase a
//     ten-year-old penicillin allergy, the very case the paper opens with.
//     Decay is a tie-breaker between near equals, not a reason to drop
//     evidence: at 0.1 per year a two-year-old ultrasound fell behind
//     other patients' fragments on the dated Chinese benchmark records
//     (docs/benchmarks.md, "Time decay").
//   - A permanent block (Candidate.Permanent: a documented allergy or a
//     genetic result, clinical.Reason.Permanent) does not decay at all;
//     the paper decays every block. Even at 0.1 per year a 2012
//     anaphylaxis would keep only a quarter of its utility in 2026, and
//     lose its tier's quota slot to fresh noise.
//   - The reason given for a chosen block's other state follows density
//     order: a denser state that came first and did not fit is "budget";
//     one that came after the chosen state is "mutual-exclusion".
//   - A block Ebm leaves out is "budget" when no state of it fits the
//     whole budget, "quota" when it would have fit in the tokens left
//     plus those the quota gave blocks less dense than it, and
//     "lower-density" otherwise: the denser blocks took the room. These
//     are the reasons the paper lists; the order of the walk, not a
//     counterfactual packing, decides them.
package pack
