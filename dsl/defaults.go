package dsl

import (
	"github.com/medkb/medkb/internal/gate"
	"github.com/medkb/medkb/planner/pack"
)

// Defaults for everything a statement may leave out, and the ranges Check
// enforces. docs/query-language.md lists them for users; the Check
// golden (testdata/check) shows them applied.
const (
	defaultK        = 50  // per arm
	defaultRRFK     = 60  // the usual RRF constant
	defaultAlpha    = 0.5 // weighted fusion: dense and sparse alike
	defaultDocVoteM = 5
	defaultDocVoteK = 10 // documents
	// GATE's thresholds are the gate's own, calibrated on MedQA
	// (docs/gate.md).
	defaultTheta1      = gate.DefaultTheta1
	defaultTheta2      = gate.DefaultTheta2
	defaultHops        = 2
	defaultExpandLimit = 20
	defaultMinEntities = 1
	defaultRerankTop   = 20 // candidates sent to the reranker
	// PACK's defaults are the packer's own (planner/pack, DefaultParams):
	// the language names them but does not restate them.
	defaultKmin        = pack.DefaultKmin
	defaultLambda      = pack.DefaultLambda // per year
	defaultEpsilon     = pack.DefaultEpsilon
	defaultFloor       = pack.DefaultSimFloor // similarity floor
	defaultReliability = 0                    // off: utility ignores evidence reliability
	defaultStrategy    = pack.Ebm
	defaultLimit       = 10 // without PACK; with PACK there is no cap

	maxK        = 10_000
	maxDocVoteM = 1000
	maxDocVoteK = 1000
	maxHops     = 6
	maxBudget   = 1_000_000
	maxKmin     = 100
	maxLimit    = 1_000_000 // LIMIT
	maxEntities = 1000      // WHEN entities >= n
	// maxMetapaths and maxExpandLimit bound the graph work of one
	// statement: every metapath is linked and expanded, and every path
	// becomes a candidate that is embedded, costed and packed.
	maxMetapaths   = 32
	maxExpandLimit = 1000
	// maxRerankTop bounds one rerank request: every candidate's text
	// goes to the reranker in one body.
	maxRerankTop = 1000
)

// defaultWeights are the packer's tier weights for T1..T4, the paper's
// optimum theta*.
func defaultWeights() [4]float64 { return pack.DefaultWeights }
