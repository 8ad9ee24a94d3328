package bm25

import (
	"fmt"
	"strings"

	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/medkb/medkb/internal/base"
)

// Field names inside the bleve index. The filter fields reuse the names of
// the query language (base.FieldTier and friends), so a condition's Field
// is its index field; meta keys become "meta.KEY".
const (
	fieldText = "text"
	fieldTime = base.FieldTime
)

// keywordFields are the filterable string fields, indexed verbatim.
var keywordFields = [...]string{
	base.FieldTier, base.FieldType, base.FieldPatient, base.FieldSource,
	base.FieldEvidence, base.FieldLang, base.FieldDoc,
}

// Analyzers: textAnalyzer is defined in the mapping; filter fields are
// indexed verbatim by bleve's keyword analyzer.
const (
	textAnalyzer    = "medkb_text"
	keywordAnalyzer = keyword.Name
)

// Indexing options. Text keeps frequencies and norms (BM25 needs them) but
// no term vectors: we never highlight or run phrase queries. Filter fields
// need neither: they only decide membership.
const (
	textOptions   = index.IndexField
	filterOptions = index.IndexField | index.SkipFreqNorm
)

// newMapping builds the index mapping: BM25 scoring, one custom analyzer
// for the text, keyword filter fields, a numeric time field and a dynamic
// "meta" object whose leaves are keywords. Nothing is stored, nothing goes
// into _all, nothing gets doc values.
//
// Documents are built by hand in toDocument, so at ingest the mapping is a
// description; at query time it supplies the scoring model and the text
// analyzer. mapping_test.go checks that the two agree.
func newMapping() (*mapping.IndexMappingImpl, error) {
	im := mapping.NewIndexMapping()
	im.ScoringModel = index.BM25Scoring
	im.StoreDynamic = false
	im.DocValuesDynamic = false
	im.IndexDynamic = true
	im.DefaultAnalyzer = keywordAnalyzer
	im.DefaultField = fieldText

	err := im.AddCustomAnalyzer(textAnalyzer, map[string]interface{}{
		"type":      custom.Name,
		"tokenizer": unicode.Name,
		"token_filters": []interface{}{
			cjk.WidthName,     // full-width Latin to ASCII, half-width kana to full
			lowercase.Name,    // case-fold
			en.PossessiveName, // "patient's" -> "patient"
			en.StopName,       // English stop words
			cjk.BigramName,    // CJK runs -> overlapping bigrams
			porter.Name,       // English stems; leaves CJK bigrams alone
		},
	})
	if err != nil {
		return nil, fmt.Errorf("bm25: define analyzer: %w", err)
	}

	doc := mapping.NewDocumentMapping()
	doc.Dynamic = false
	doc.AddSubDocumentMapping("_all", mapping.NewDocumentDisabledMapping()) // no catch-all field

	text := mapping.NewTextFieldMapping()
	text.Analyzer = textAnalyzer
	text.Store = false
	text.IncludeTermVectors = false
	text.IncludeInAll = false
	text.DocValues = false
	doc.AddFieldMappingsAt(fieldText, text)

	for _, name := range keywordFields {
		doc.AddFieldMappingsAt(name, keywordMapping())
	}

	day := mapping.NewNumericFieldMapping()
	day.Store = false
	day.IncludeInAll = false
	day.DocValues = false
	doc.AddFieldMappingsAt(fieldTime, day)

	meta := mapping.NewDocumentMapping()
	meta.Dynamic = true
	meta.DefaultAnalyzer = keywordAnalyzer
	// The object holding Doc.Meta: its leaves are the fields "meta.KEY".
	doc.AddSubDocumentMapping(strings.TrimSuffix(base.MetaPrefix, "."), meta)

	im.DefaultMapping = doc
	if err := im.Validate(); err != nil {
		return nil, fmt.Errorf("bm25: mapping: %w", err)
	}
	return im, nil
}

func keywordMapping() *mapping.FieldMapping {
	m := mapping.NewKeywordFieldMapping()
	m.Store = false
	m.IncludeTermVectors = false
	m.IncludeInAll = false
	m.DocValues = false
	m.SkipFreqNorm = true
	return m
}
