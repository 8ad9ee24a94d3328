package medkb

import (
	"fmt"

	"github.com/medkb/medkb/store"
)

// DocView is a document with its chunks, for `medkb show`.
type DocView struct {
	Doc
	Chunks []ChunkView `json:"chunks"`
}

// ChunkView is one chunk as `medkb show` prints it.
type ChunkView struct {
	Ord     uint64   `json:"ord"`
	Index   int      `json:"index"`
	Tier    string   `json:"tier"`
	Tokens  int      `json:"tokens"`
	Text    string   `json:"text"`
	TextB   string   `json:"text_b,omitempty"`
	TokensB int      `json:"tokens_b,omitempty"`
	Keys    []string `json:"keys,omitempty"`
	NEntity int      `json:"n_entity"`
	NTotal  int      `json:"n_total"`
	// Permanent: an allergy or genetic result, spared time decay.
	Permanent bool `json:"permanent,omitempty"`
	// TierBy says how Tier was decided, as clinical.Reason renders it
	// ("tier field", "type table: lab", "text rule: narrative"); "" when
	// the chunk was written before medkb recorded it (`medkb rebuild`
	// records it).
	TierBy string `json:"tier_by"`
	// TierOf says whose decision Tier is: "chunk" (the chunk's own text:
	// an untyped document of several chunks is tiered chunk by chunk) or
	// "document" (the document's tier, type or whole text); "" when not
	// recorded.
	TierOf string `json:"tier_of,omitempty"`
}

// Whose decision a chunk's tier is (ChunkView.TierOf).
const (
	TierOfChunk    = "chunk"
	TierOfDocument = "document"
)

// ErrNotFound is returned by Show for an unknown document id.
var ErrNotFound = store.ErrNotFound

// Show returns documents by id with their chunks.
func (db *DB) Show(ids []string) ([]DocView, error) {
	g, release, err := db.snapshot()
	if err != nil {
		return nil, err
	}
	defer release()
	var out []DocView
	for _, id := range ids {
		d, ords, err := g.st.Doc(id)
		if err != nil {
			return nil, err
		}
		if d == nil {
			return nil, fmt.Errorf("%w: %q", ErrNotFound, id)
		}
		chunks, err := g.st.Chunks(ords)
		if err != nil {
			return nil, err
		}
		v := DocView{Doc: Doc(*d)}
		v.Vector = nil
		for _, c := range chunks {
			cv := ChunkView{Ord: c.Ord, Index: c.Index, Tier: c.Tier.String(), Tokens: c.TokensA,
				Text: c.Text, TextB: c.TextB, TokensB: c.TokensB, Keys: c.Keys, NEntity: c.NEntity, NTotal: c.NTotal,
				Permanent: c.Permanent, TierBy: c.TierBy}
			switch {
			case c.TierBy == "":
			case c.TierOwn:
				cv.TierOf = TierOfChunk
			default:
				cv.TierOf = TierOfDocument
			}
			v.Chunks = append(v.Chunks, cv)
		}
		out = append(out, v)
	}
	return out, nil
}
