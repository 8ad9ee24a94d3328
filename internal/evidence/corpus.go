package evidence

import (
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/bench/packbench"
)

// CaseDocs turns RRCE cases into documents, one per segment: {id: the
// segment's id, text, type, time, patient: the case's id}. The segment's
// gold tier, signal flag and keys stay behind: the classifier decides
// the tier, as it does for any record, and the questions name their own
// evidence.
func CaseDocs(cases []packbench.Case) []base.Doc {
	var docs []base.Doc
	for _, c := range cases {
		for _, s := range c.Segments {
			docs = append(docs, base.Doc{ID: s.ID, Text: s.Text, Type: s.Type, Time: s.Time, Patient: c.ID})
		}
	}
	return docs
}

// Untyped drops every document's type and given tier, in place, so that
// the text rules decide the tier, as for records that come without EMR
// section types.
func Untyped(docs []base.Doc) {
	for i := range docs {
		docs[i].Type, docs[i].Tier = "", base.TierNone
	}
}
