package bm25

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"

	"github.com/medkb/medkb/internal/base"
)

// Doc is one chunk as the index sees it: its ordinal, its text and the
// attributes a query may filter on. Empty strings, TierNone and NoDay mean
// "absent": the field is not indexed, so no condition but != matches it.
type Doc struct {
	Ord      uint64 // chunk ordinal, the document's identity in the index
	Doc      string // id of the document the chunk belongs to
	Text     string
	Tier     base.Tier
	Type     string
	Patient  string
	Source   string
	Evidence string
	Lang     string
	Time     base.Day          // base.NoDay when absent
	Meta     map[string]string // filterable as "meta.KEY"
}

// idLen is the length of an encoded ordinal: 16 hex digits, fixed so that
// the lexical order of ids is the numeric order of ordinals (the tie-break
// sort on _id relies on it).
const idLen = 16

// encodeOrd returns the bleve document id of ordinal ord.
func encodeOrd(ord uint64) string {
	var b [idLen]byte
	const digits = "0123456789abcdef"
	for i := idLen - 1; i >= 0; i-- {
		b[i] = digits[ord&0xf]
		ord >>= 4
	}
	return string(b[:])
}

// decodeOrd reads an id written by encodeOrd, and nothing else.
func decodeOrd(id string) (uint64, error) {
	if len(id) != idLen {
		return 0, fmt.Errorf("%w: document id %q is not %d hex digits", ErrCorrupt, id, idLen)
	}
	var ord uint64
	for i := range idLen {
		c := id[i]
		switch {
		case '0' <= c && c <= '9':
			ord = ord<<4 | uint64(c-'0')
		case 'a' <= c && c <= 'f':
			ord = ord<<4 | uint64(c-'a'+10)
		default:
			return 0, fmt.Errorf("%w: document id %q is not %d lower-case hex digits", ErrCorrupt, id, idLen)
		}
	}
	return ord, nil
}

// analyzers are the two analyzers a document needs, taken from the index
// mapping so that ingest and query analyse text the same way.
type analyzers struct {
	text    analysis.Analyzer
	keyword analysis.Analyzer
}

// toDocument builds the bleve document of d, whose text analyses to
// tokens.
func (a analyzers) toDocument(d *Doc, tokens analysis.TokenStream) *document.Document {
	doc := document.NewDocument(encodeOrd(d.Ord))
	doc.AddField(document.NewTextFieldCustom(fieldText, nil, []byte(d.Text), textOptions, analyzed(tokens)))
	a.addKeyword(doc, base.FieldTier, d.Tier.String())
	a.addKeyword(doc, base.FieldType, d.Type)
	a.addKeyword(doc, base.FieldPatient, d.Patient)
	a.addKeyword(doc, base.FieldSource, d.Source)
	a.addKeyword(doc, base.FieldEvidence, d.Evidence)
	a.addKeyword(doc, base.FieldLang, d.Lang)
	a.addKeyword(doc, base.FieldDoc, d.Doc)
	for k, v := range d.Meta {
		if k == "" {
			continue // "meta." names no key; no condition can reach it
		}
		a.addKeyword(doc, base.MetaPrefix+k, v)
	}
	if d.Time != base.NoDay {
		doc.AddField(document.NewNumericFieldWithIndexingOptions(fieldTime, nil, float64(d.Time), filterOptions))
	}
	return doc
}

func (a analyzers) addKeyword(doc *document.Document, field, value string) {
	if value == "" {
		return
	}
	doc.AddField(document.NewTextFieldCustom(field, nil, []byte(value), filterOptions, a.keyword))
}
