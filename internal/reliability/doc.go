// Package reliability scores how far a publication can be trusted, from
// its study design and its age, as M-Eval (seed 002) does, and sums that
// score over the evidence a caller has labelled as supporting or
// contradicting a claim.
//
// # Score
//
// A document's design is read from its Evidence field, else its Type,
// and only when both are empty from conservative cues in its title and
// text (see Cues). Each design has a level k:
//
//	8 systematic review, meta-analysis, guideline
//	7 randomised controlled trial
//	6 other clinical trial (non-randomised, single-arm)
//	5 cohort study
//	4 case-control study
//	3 case series
//	2 case report
//	1 expert opinion, editorial, consensus, narrative review
//
// and the score is
//
//	reliability = (k - 1 + 2^(-age/H)) / 8,  H = 10 years
//
// where age is the years from the publication's date (Published, else
// Time) to now, 0 for a date after now, and H for an undated document
// (it counts as half fresh). Recency moves a score within its design's
// band of width 1/8 and never across it: a design outscores every lower
// design whatever the dates (the bands touch only at an infinite age),
// and among equal designs the newer study scores higher. A document of
// no known design scores 0: nothing vouches for it.
//
// # Why this formula
//
// M-Eval gives each study type a base score and raises it with recency
// but publishes no numbers. Equal-width bands make the design order
// strict and the arithmetic easy to check by hand; the half-life of ten
// years is about the time after which clinical literature is cited half
// as often, and leaves a thirty-year-old study an eighth of its band,
// still above the band below.
//
// # Caveats
//
// The design is metadata arithmetic, not an appraisal: a badly run RCT
// outscores a careful cohort study. Text cues read English only, and
// when several designs' cues appear the lowest wins, so a meta-analysis
// whose abstract names the cohorts it pooled reads as a cohort study;
// give Evidence to avoid that.
package reliability
