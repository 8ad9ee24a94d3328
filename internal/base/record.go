package base

// Doc is one document: the JSON Lines input record (docs/ingest.md,
// "Documents") and, after ingest, the stored record with Tier and Type
// resolved.
// Only ID and Text are required on input.
type Doc struct {
	ID        string            `json:"id"`
	Text      string            `json:"text"`
	Type      string            `json:"type,omitempty"`
	Tier      Tier              `json:"tier,omitempty"`
	Patient   string            `json:"patient,omitempty"`
	Time      string            `json:"time,omitempty"`
	Title     string            `json:"title,omitempty"`
	Source    string            `json:"source,omitempty"`
	Evidence  string            `json:"evidence,omitempty"`
	Published string            `json:"published,omitempty"`
	Lang      string            `json:"lang,omitempty"`
	Meta      map[string]string `json:"meta,omitempty"`
	Vector    []float32         `json:"vector,omitempty"`
	Embedder  string            `json:"embedder,omitempty"` // the model that made Vector
}

// Heading is what a document says of its chunks besides their text: its
// title and type. BM25 indexes and relevance reads every chunk with its
// document's heading before its text, so that a question naming a report
// ("胃镜看到了什么", "the echo") finds it by its type or title when its text
// never names it.
func (d *Doc) Heading() string {
	switch {
	case d.Title == "":
		return d.Type
	case d.Type == "":
		return d.Title
	}
	return d.Title + " " + d.Type
}

// Chunk is one sentence-bounded piece of a document, with both packing
// states precomputed at ingest so that packing is arithmetic at query time.
type Chunk struct {
	Ord     uint64 // global ordinal: vector slot and BM25 id
	Doc     string // document id
	Index   int    // position in the document, from 0
	Tier    Tier
	Text    string // state A: the full text
	TokensA int
	// State B, the fidelity-preserving compression; only T1 and T2 chunks
	// have one (TextB == "" otherwise).
	TextB   string
	TokensB int
	VectorB []float32 // embedding of TextB (nil without state B)
	// Keys are the key entities of Text (values with units, positive and
	// negative findings, allergy statements). NEntity of them survive in
	// TextB; NTotal == len(Keys).
	Keys    []string
	NEntity int
	NTotal  int
	// Permanent marks evidence that does not age (an allergy, a genetic
	// result): time decay spares it. See clinical.Reason.Permanent.
	Permanent bool
	// TierBy says how Tier was decided, as clinical.Reason renders it
	// ("tier field", "type table: lab", "text rule: narrative"); "" for a
	// chunk written before medkb recorded it (`medkb rebuild` records it).
	TierBy string
	// TierOwn: Tier is the chunk's own, decided on its text (an untyped
	// document of several chunks is tiered chunk by chunk); false: it is
	// its document's, decided on the document's tier, type or whole text.
	TierOwn bool
}

// HasB reports whether the chunk has a compressed state.
func (c *Chunk) HasB() bool { return c.TextB != "" }

// Slot holds the filterable attributes of one vector slot, fixed-size so
// the vector scan can test them without touching documents. String fields
// are ids from the store's dictionary (0 means absent).
type Slot struct {
	Ord      uint64
	DocNum   uint32 // dictionary id of the document id
	Tier     Tier
	Alive    bool
	Time     Day
	Patient  uint32
	Type     uint32
	Source   uint32
	Evidence uint32
	Lang     uint32
}
