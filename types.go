package medkb

import "github.com/medkb/medkb/internal/base"

// The record types of the embedding API (defined in internal/base so that
// every package shares them).
type (
	// Doc is one document; only ID and Text are required.
	Doc = base.Doc
	// Tier is an evidence tier, T1 (most objective) to T4.
	Tier = base.Tier
	// Entity is a knowledge-graph node.
	Entity = base.Entity
	// Triple is a typed knowledge-graph edge.
	Triple = base.Triple
)

// The evidence tiers.
const (
	T1 = base.T1
	T2 = base.T2
	T3 = base.T3
	T4 = base.T4
)
