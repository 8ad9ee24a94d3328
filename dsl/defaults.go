package dsl

// Defaults for everything a statement may leave out, and the ranges Check
// enforces. docs/query-language.md lists them for users; the Check
// golden (testdata/check) shows them applied.
const (
	defaultK           = 50  // per arm
	defaultRRFK        = 60  // the usual RRF constant
	defaultAlpha       = 0.5 // weighted fusion: dense and sparse alike
	defaultDocVoteM    = 5
	defaultHops        = 2
	defaultExpandLimit = 20
	defaultMinEntities = 1
	defaultKmin        = 1
	defaultLambda      = 0.02 // per year
	defaultEpsilon     = 0
	defaultFloor       = 0.5 // similarity floor; planner tests hold it to pack.DefaultSimFloor
	defaultLimit       = 10  // without PACK; with PACK there is no cap

	maxK        = 10_000
	maxDocVoteM = 1000
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
)

// defaultWeights are the paper's optimum theta* for tiers T1..T4.
func defaultWeights() [4]float64 { return [4]float64{2.5, 2.5, 1, 1} }

// strategies lists the PACK strategies in the order messages name them.
func strategies() []string {
	return []string{StrategyEBM, StrategyPaper, StrategyExact, StrategyFIFO, StrategySemantic, StrategyUniform}
}
