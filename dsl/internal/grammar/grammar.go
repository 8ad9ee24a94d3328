package grammar

import "github.com/alecthomas/participle/v2/lexer"

// The productions. Field tags are participle grammar; the type names become
// the rule names of the EBNF. Keywords are written in their canonical
// spelling (matching is case-insensitive). Every struct records the
// position of its first token in Pos.

// Statement is the root: clauses in pipeline order, each at most once.
type Statement struct {
	Explain   *Explain  `parser:"@@?"`
	Retrieve  *Retrieve `parser:"@@"`
	Using     *Using    `parser:"@@?"`
	Where     *Where    `parser:"@@?"`
	Gate      *Gate     `parser:"@@?"`
	Fuse      *Fuse     `parser:"@@?"`
	Expand    *Expand   `parser:"@@?"`
	Rerank    *Rerank   `parser:"@@?"`
	Pack      *Pack     `parser:"@@?"`
	Limit     *Limit    `parser:"@@?"`
	Semicolon bool      `parser:"@';'?"`
}

// Explain is EXPLAIN [ANALYZE].
type Explain struct {
	Pos     lexer.Position
	Analyze bool `parser:"'EXPLAIN' @'ANALYZE'?"`
}

// Retrieve is RETRIEVE "<query text>".
type Retrieve struct {
	Pos  lexer.Position
	Text *String `parser:"'RETRIEVE' @@"`
}

// Using lists the retrieval arms.
type Using struct {
	Pos  lexer.Position
	Arms []*Arm `parser:"'USING' @@ (',' @@)*"`
}

// Arm is bm25 or vector with optional options in parentheses.
type Arm struct {
	Pos     lexer.Position
	Name    string       `parser:"@('bm25' | 'vector')"`
	Options []*ArmOption `parser:"('(' @@ (',' @@)* ')')?"`
}

// ArmOption is one arm option, k=N or scan=f32|int8; exactly one field
// is set.
type ArmOption struct {
	Pos  lexer.Position
	K    *Number   `parser:"  'k' '=' @@"`
	Scan *ScanKind `parser:"| 'scan' '=' @@"`
}

// ScanKind names how the vector arm scans.
type ScanKind struct {
	Pos  lexer.Position
	Name string `parser:"@('f32' | 'int8')"`
}

// Where is a conjunction of conditions.
type Where struct {
	Pos   lexer.Position
	Conds []*Cond `parser:"'WHERE' @@ ('AND' @@)*"`
}

// Cond is field op value, or field IN (values).
type Cond struct {
	Pos     lexer.Position
	Field   *Field   `parser:"@@"`
	In      *InList  `parser:"( @@"`
	Compare *Compare `parser:"| @@ )"`
}

// Field is a known field name or meta.KEY.
type Field struct {
	Pos  lexer.Position
	Name string   `parser:"  @('tier' | 'type' | 'patient' | 'time' | 'source' | 'evidence' | 'lang' | 'doc')"`
	Meta *MetaKey `parser:"| @@"`
}

// MetaKey is meta.KEY, KEY a name or a quoted string (never a
// parameter: a key names a field, it is not a value).
type MetaKey struct {
	Pos    lexer.Position
	Name   string   `parser:"'meta' '.' ( @Ident"`
	Quoted *Literal `parser:"| @@ )"`
}

// InList is IN (v, ...).
type InList struct {
	Pos    lexer.Position
	Values []*Value `parser:"'IN' '(' @@ (',' @@)* ')'"`
}

// Compare is an operator and one value.
type Compare struct {
	Pos   lexer.Position
	Op    string `parser:"@('=' | '!=' | '<=' | '>=' | '<' | '>')"`
	Value *Value `parser:"@@"`
}

// Value is a string, a number or a bare name.
type Value struct {
	Pos    lexer.Position
	String *String `parser:"  @@"`
	Number *Number `parser:"| @@"`
	Name   string  `parser:"| @Ident"`
}

// Gate is the completeness gate with optional thresholds; a threshold
// given twice is rejected after parsing.
type Gate struct {
	Pos     lexer.Position
	Options []*GateOption `parser:"'GATE' ('(' @@ (',' @@)* ')')?"`
}

// GateOption is theta1 = n or theta2 = n.
type GateOption struct {
	Pos   lexer.Position
	Name  string  `parser:"@('theta1' | 'theta2')"`
	Value *Number `parser:"'=' @@"`
}

// Fuse picks one fusion method.
type Fuse struct {
	Pos      lexer.Position
	RRF      *RRF      `parser:"'FUSE' ( @@"`
	Weighted *Weighted `parser:"       | @@"`
	DocVote  *DocVote  `parser:"       | @@ )"`
}

// RRF is reciprocal rank fusion with an optional k.
type RRF struct {
	Pos lexer.Position
	K   *Number `parser:"'rrf' ('(' 'k' '=' @@ ')')?"`
}

// Weighted is min-max weighted fusion with an optional alpha: a number,
// or auto (chosen per query from its entity density).
type Weighted struct {
	Pos   lexer.Position
	Auto  bool    `parser:"'weighted' ('(' 'alpha' '=' ( @'auto'"`
	Alpha *Number `parser:"                              | @@ ) ')')?"`
}

// DocVote is chunk-to-document voting with optional m (chunks per
// sentence), k (documents kept) and votes (the arms that vote); an
// option given twice is rejected after parsing.
type DocVote struct {
	Pos     lexer.Position
	Options []*DocVoteOption `parser:"'docvote' ('(' @@ (',' @@)* ')')?"`
}

// DocVoteOption is one docvote option; exactly one field is set.
type DocVoteOption struct {
	Pos   lexer.Position
	M     *Number `parser:"  'm' '=' @@"`
	K     *Number `parser:"| 'k' '=' @@"`
	Votes string  `parser:"| 'votes' '=' @('bm25' | 'vector' | 'both')"`
}

// Expand is graph expansion along metapaths; its options come in this
// order, so a LIMIT right after them belongs to EXPAND.
type Expand struct {
	Pos       lexer.Position
	Metapaths []*Literal `parser:"'EXPAND' 'metapath' @@ (',' @@)*"`
	Hops      *Number    `parser:"('HOPS' @@)?"`
	Limit     *Number    `parser:"('LIMIT' @@)?"`
	When      *Number    `parser:"('WHEN' 'entities' '>=' @@)?"`
}

// Rerank sends the top candidates to the configured reranker; top is
// how many.
type Rerank struct {
	Pos lexer.Position
	Top *Number `parser:"'RERANK' ('top' @@)?"`
}

// Pack is the packer with options in any order; duplicates are rejected
// after parsing, where the message can name both places.
type Pack struct {
	Pos     lexer.Position
	Options []*PackOption `parser:"'PACK' @@+"`
}

// PackOption is one PACK option; exactly one field is set.
type PackOption struct {
	Pos      lexer.Position
	Budget   *Number   `parser:"  'budget' @@"`
	Kmin     *Number   `parser:"| 'kmin' @@"`
	Weights  []*Number `parser:"| 'weights' '(' @@ (',' @@)* ')'"`
	Lambda   *Number   `parser:"| 'lambda' @@"`
	Epsilon  *Number   `parser:"| 'epsilon' @@"`
	Floor    *Number   `parser:"| 'floor' @@"`
	Reliab   *Number   `parser:"| 'reliability' @@"`
	Strategy *Strategy `parser:"| 'strategy' @@"`
	Now      *String   `parser:"| 'now' @@"`
}

// Strategy names a packing strategy.
type Strategy struct {
	Pos  lexer.Position
	Name string `parser:"@('ebm' | 'paper' | 'exact' | 'fifo' | 'semantic' | 'uniform')"`
}

// Limit caps the number of results.
type Limit struct {
	Pos lexer.Position
	N   *Number `parser:"'LIMIT' @@"`
}

// String is a double-quoted string as written, quotes and escapes
// included, or a parameter ($name) to be bound to a string.
type String struct {
	Pos   lexer.Position
	Raw   string `parser:"  @String"`
	Param string `parser:"| @Param"`
}

// Literal is a double-quoted string and nothing else: where a parameter
// is not allowed (meta keys, metapaths).
type Literal struct {
	Pos lexer.Position
	Raw string `parser:"@String"`
}

// Number is a number as written, or a parameter ($name) to be bound to
// one.
type Number struct {
	Pos   lexer.Position
	Text  string `parser:"  @Number"`
	Param string `parser:"| @Param"`
}
