package dsl

import "github.com/medkb/medkb/internal/base"

// Statement is the syntax tree of one statement, as written: nothing is
// defaulted or range-checked (Check does that). Absent clauses are nil.
// Keywords and names that are case-insensitive are stored lower-case
// (fuse method, arm names, strategy, known field names); values, meta keys
// and numbers keep their spelling.
type Statement struct {
	Pos      Pos // of the first token
	Explain  *ExplainClause
	Retrieve *RetrieveClause
	Using    *UsingClause
	Where    *WhereClause
	Gate     *GateClause
	Fuse     *FuseClause
	Expand   *ExpandClause
	Rerank   *RerankClause
	Pack     *PackClause
	Limit    *LimitClause

	src source // the text parsed, for positioned errors from Check
}

// ExplainClause is EXPLAIN [ANALYZE].
type ExplainClause struct {
	Pos     Pos
	Analyze bool
}

// RetrieveClause is RETRIEVE "<query text>".
type RetrieveClause struct {
	Pos  Pos
	Text Str
}

// UsingClause names the retrieval arms; an arm not named is nil.
type UsingClause struct {
	Pos    Pos
	BM25   *ArmSpec
	Vector *ArmSpec
}

// ArmSpec is one arm, bm25 or vector, with its k and scan when given.
type ArmSpec struct {
	Pos  Pos
	K    *Num
	Scan *Name // f32 or int8; Check accepts it on the vector arm only
}

// WhereClause is a conjunction of conditions.
type WhereClause struct {
	Pos   Pos
	Conds []Condition
}

// Condition is field op value, or field IN (values) with Op base.OpIn.
type Condition struct {
	Pos    Pos
	Field  Field
	Op     base.Op
	OpPos  Pos
	Values []Value // one value unless Op is base.OpIn
}

// Field is a field name: one of the base.Field* names, or "meta." + KEY.
type Field struct {
	Pos  Pos
	Name string
}

// ValueKind says how a value was written.
type ValueKind uint8

// The ways to write a value.
const (
	ValueString ValueKind = iota // "text"
	ValueNumber                  // 12 or 0.5
	ValueName                    // a bare name: T1, lab
	ValueParam                   // $name not yet bound (Bind sets String or Number)
)

// Value is one value of a condition; Text is the decoded string, the
// number as written, or the name. A value written as a parameter keeps
// its Placeholder after Bind has filled in Kind and Text.
type Value struct {
	Pos         Pos
	Kind        ValueKind
	Text        string
	Placeholder *Placeholder
}

// GateClause is the completeness gate, with its thresholds when given.
type GateClause struct {
	Pos            Pos
	Theta1, Theta2 *Num
}

// FuseClause picks the fusion method ("rrf", "weighted" or "docvote") and
// its parameter when given: k for rrf, alpha for weighted, m for
// docvote. Auto is weighted(alpha=auto): alpha chosen per query (Param
// is nil then). Docvote also takes Docs (k, the documents kept) and Votes
// (the voting arms: bm25, vector or both).
type FuseClause struct {
	Pos    Pos
	Method string
	Param  *Num
	Auto   bool
	Docs   *Num
	Votes  *Name
}

// ExpandClause is graph expansion along metapath templates.
type ExpandClause struct {
	Pos       Pos
	Metapaths []Str
	Hops      *Num
	Limit     *Num
	When      *Num // WHEN entities >= When
}

// RerankClause is RERANK [top N]: the top N candidates go to the
// configured reranker.
type RerankClause struct {
	Pos Pos
	Top *Num
}

// PackClause is the packer with its options; an option not given is nil.
type PackClause struct {
	Pos      Pos
	Budget   *Num
	Kmin     *Num
	Weights  *NumList
	Lambda   *Num
	Epsilon  *Num
	Floor    *Num
	Reliab   *Num // the reliability weight
	Strategy *Name
	Now      *Str
}

// LimitClause caps the number of results.
type LimitClause struct {
	Pos Pos
	N   Num
}

// Str is a string literal: its decoded value, and the position of its
// opening quote.
type Str struct {
	Pos         Pos
	Value       string
	Placeholder *Placeholder // non-nil when written as $name
}

// Num is a number as written (digits, optionally a fraction).
type Num struct {
	Pos         Pos
	Text        string
	Placeholder *Placeholder // non-nil when written as $name
}

// Placeholder is a named parameter, $Name, where a literal could stand.
// Bind fills in the literal it holds and sets Bound; the name stays, so
// that printing shows $Name and a second Bind can rebind it.
type Placeholder struct {
	Name  string // without the $; case matters
	Bound bool
}

// NumList is a parenthesised list of numbers; Pos is its keyword's.
type NumList struct {
	Pos  Pos
	Nums []Num
}

// Name is a bare word such as a strategy name.
type Name struct {
	Pos  Pos
	Text string
}
