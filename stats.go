package medkb

import (
	"github.com/medkb/medkb/internal/base"
)

// Stats describes a store; the JSON names are a contract of `medkb stats`.
type Stats struct {
	Docs       int            `json:"docs"`
	Chunks     int            `json:"chunks"`
	Vectors    int            `json:"vectors"`
	Tiers      map[string]int `json:"tiers"` // documents per tier
	Generation string         `json:"generation"`
	Embedder   string         `json:"embedder"`
	Dim        int            `json:"dim"`
	Entities   int            `json:"entities"`
	Triples    int            `json:"triples"`
	Seq        uint64         `json:"seq"`
	// Backend names the retrieval backend when it is not the embedded
	// one: "weaviate (flat, 3 replicas)".
	Backend string `json:"backend,omitempty"`
}

// Stats reads the store's counters.
func (db *DB) Stats() (*Stats, error) {
	g, release, err := db.snapshot()
	if err != nil {
		return nil, err
	}
	defer release()
	m, err := g.st.Meta()
	if err != nil {
		return nil, err
	}
	s := &Stats{Docs: m.Docs, Chunks: m.Chunks, Vectors: m.Vectors, Tiers: map[string]int{},
		Generation: g.st.Generation(), Embedder: m.Embedder, Dim: m.Dim,
		Entities: m.Entities, Triples: m.Triples, Seq: m.Seq}
	if g.remote != nil {
		s.Backend = g.remote.spec.describe()
	}
	for i, t := range base.Tiers {
		s.Tiers[t.String()] = m.Tiers[i]
	}
	return s, nil
}
