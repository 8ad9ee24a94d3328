package base

// Op is a comparison in a WHERE condition.
type Op string

// The comparison operators of the query language.
const (
	OpEq Op = "="
	OpNe Op = "!="
	OpLt Op = "<"
	OpLe Op = "<="
	OpGt Op = ">"
	OpGe Op = ">="
	OpIn Op = "IN"
)

// Filterable fields. A condition on "meta.KEY" names a key of Doc.Meta.
const (
	FieldTier     = "tier"
	FieldType     = "type"
	FieldPatient  = "patient"
	FieldTime     = "time"
	FieldSource   = "source"
	FieldEvidence = "evidence"
	FieldLang     = "lang"
	FieldDoc      = "doc"
	MetaPrefix    = "meta."
)

// Cond is one bound WHERE condition. Values holds one value, or several for
// OpIn. Tier values are "T1".."T4"; time values are normalised to
// YYYY-MM-DD by the binder. Ordering operators apply to time only.
type Cond struct {
	Field  string
	Op     Op
	Values []string
}

// Filter is a conjunction of conditions; the empty filter matches all.
type Filter []Cond
