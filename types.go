package medkb

import "github.com/medkb/medkb/internal/base"

// Tier is an evidence tier: T1 (gold standard: pathology, cultures,
// genetics, allergies), T2 (objective examination: labs, imaging), T3
// (professional observation: physical examination, notes), T4
// (subjective description: complaints). The zero value means "not
// given". In JSON it is "T1".."T4"; on input the numbers 1 to 4 are read
// too.
//
// Tier names the store's own type rather than copying it, so that a Doc
// converts to the stored record field for field, checked by the compiler.
type Tier = base.Tier

// The evidence tiers, most objective first.
const (
	T1 = base.T1
	T2 = base.T2
	T3 = base.T3
	T4 = base.T4
)

// Doc is one document: what Ingest takes (`medkb ingest` reads one a
// JSON Lines record, with these names) and what Export and Show return,
// with Tier and Lang resolved. Only ID and Text are required. Ingest
// replaces a stored document of the same ID, and refuses one with a
// field it cannot read or over its limit (CheckDoc says which): ID 512
// bytes, Text 1 MiB, Type, Patient, Source, Evidence and Lang 256, Title
// 1,024, Time and Published 64, Embedder 256, Meta 64 keys of 128 bytes with values of
// 1,024, Vector 8,192 numbers.
type Doc struct {
	// ID names the document, at most 512 bytes, without control
	// characters or surrounding white space.
	ID string `json:"id"`
	// Text is the document's text, at most 1 MiB and not only white
	// space. Ingest cuts it into sentence-bounded chunks of at most
	// Options.ChunkTokens tokens.
	Text string `json:"text"`
	// Type is the kind of record, an EMR component ("lab", "pathology",
	// "complaint") or a publication type ("rct", "guideline"). It decides
	// the tier when Tier is not given, and heads every chunk's BM25 text.
	Type string `json:"type,omitempty"`
	// Tier overrides the classifier when given; after ingest it is the
	// tier the document was given or classified as.
	Tier Tier `json:"tier,omitempty"`
	// Patient ties the document to one patient's record. Patient,
	// Source, Evidence, Lang and Time are filterable in WHERE.
	Patient string `json:"patient,omitempty"`
	// Time is when the record was made: 2024-03-05 (also with / or .,
	// 2024年3月5日 or 20240305, optionally with a time of day), RFC 3339,
	// a month (2024-03) or a year. The day is the one written, whatever
	// the zone. It drives time filters and time decay.
	Time string `json:"time,omitempty"`
	// Title heads every chunk's BM25 text and is shown in the sources.
	Title string `json:"title,omitempty"`
	// Source says where the document comes from ("EMR", a journal).
	Source string `json:"source,omitempty"`
	// Evidence is a publication's level of evidence ("rct", "cohort").
	Evidence string `json:"evidence,omitempty"`
	// Published is a publication's date, in the layouts of Time.
	Published string `json:"published,omitempty"`
	// Lang is the language ("en", "zh"); detected from Text when empty.
	Lang string `json:"lang,omitempty"`
	// Meta holds up to 64 string values, each filterable as meta.KEY.
	Meta map[string]string `json:"meta,omitempty"`
	// Vector is a precomputed embedding of the store's dimension, used
	// for every chunk instead of the embedder's. Export returns it; Show
	// leaves it out.
	Vector []float32 `json:"vector,omitempty"`
	// Embedder names the model that made Vector, as the store's embedder
	// is named ("hash-v1", "openai:MODEL"), and is required with it:
	// Ingest refuses a vector of another model, or of none named, since
	// its dimension alone cannot tell models apart (384 is hash-v1's and
	// several sentence models') and a foreign vector would be ranked
	// against the store's query vectors without any error. Export and
	// Show return it.
	Embedder string `json:"embedder,omitempty"`
}

// Entity is a knowledge-graph node: a name unique within its type.
type Entity struct {
	Name string `json:"name"`
	Type string `json:"type"` // "Disease", "Drug", "Gene", ...
	// Aliases are other names the entity linker finds it by in a
	// question; IngestGraph merges them with those already stored.
	Aliases []string `json:"aliases,omitempty"`
}

// Triple is a typed, directed knowledge-graph edge: Head -Relation->
// Tail. Its endpoints become entities when they are not yet.
type Triple struct {
	Head     string `json:"head"`
	HeadType string `json:"head_type"`
	Relation string `json:"relation"` // "treats", "causes", ...
	Tail     string `json:"tail"`
	TailType string `json:"tail_type"`
	// Source says where the edge comes from; optional.
	Source string `json:"source,omitempty"`
	// Weight is the edge's strength; zero means unweighted.
	Weight float64 `json:"weight,omitempty"`
}

// GraphChange counts what IngestGraph added.
type GraphChange struct {
	Entities int // new entities, named explicitly or as triple endpoints
	Triples  int // new triples; a triple already stored is not counted
}

// The conversions below are between types with the same fields, so the
// compiler refuses them when one side gains a field the other lacks.

func toBaseDoc(d Doc) base.Doc            { return base.Doc(d) }
func fromBaseDoc(d base.Doc) Doc          { return Doc(d) }
func toBaseEntity(e Entity) base.Entity   { return base.Entity(e) }
func fromBaseEntity(e base.Entity) Entity { return Entity(e) }
func toBaseTriple(t Triple) base.Triple   { return base.Triple(t) }
