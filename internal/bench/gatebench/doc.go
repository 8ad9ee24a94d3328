// Package gatebench measures the completeness gate (package gate) on
// public data, for `medkb bench gate` and the tests that hold its
// targets:
//
//   - masking: every MedQA vignette loses 0, 1, ... sentences in a random
//     order (seeded); the mean score must fall at every step, and the
//     share of vignettes whose own score never rises is reported;
//   - calibration: theta1 and theta2 are chosen on the even-numbered
//     vignettes (gate.Calibrate) and checked on the odd ones;
//   - decisions: how the thresholds sort MedQA vignettes, PubMedQA
//     questions alone, and PubMedQA questions with their abstracts.
package gatebench
