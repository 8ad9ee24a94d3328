package grammar

import (
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Token is one significant token: comments and whitespace are gone.
type Token struct {
	Kind Kind
	Text string // as written
	Pos  lexer.Position
}

// Parser lexes and parses statements. It is immutable once built and safe
// for concurrent use.
type Parser struct {
	parser  *participle.Parser[Statement]
	lexDef  *lexer.StatefulDefinition
	kinds   map[lexer.TokenType]Kind
	types   map[Kind]lexer.TokenType
	elided  map[lexer.TokenType]bool
	eofType lexer.TokenType
}

// New builds the lexer and the participle parser.
func New() (*Parser, error) {
	def, err := lexer.NewSimple(rules())
	if err != nil {
		return nil, fmt.Errorf("grammar: lexer: %w", err)
	}
	parser, err := participle.Build[Statement](
		participle.Lexer(def),
		participle.CaseInsensitive("Ident"),
		participle.UseLookahead(1),
	)
	if err != nil {
		return nil, fmt.Errorf("grammar: parser: %w", err)
	}
	p := &Parser{
		parser:  parser,
		lexDef:  def,
		kinds:   map[lexer.TokenType]Kind{},
		types:   map[Kind]lexer.TokenType{KindEOF: lexer.EOF},
		elided:  map[lexer.TokenType]bool{},
		eofType: lexer.EOF,
	}
	kinds := ruleKinds()
	for name, tt := range def.Symbols() {
		if kind, ok := kinds[name]; ok {
			p.kinds[tt] = kind
			p.types[kind] = tt
		}
		if name == "Comment" || name == "Whitespace" {
			p.elided[tt] = true
		}
	}
	return p, nil
}

// EBNF is the grammar as participle prints it.
func (p *Parser) EBNF() string { return p.parser.String() }

// Lex splits src into significant tokens. The lexer is total (its last
// rule takes any single character), so it cannot fail on valid UTF-8; the
// last token is always KindEOF.
func (p *Parser) Lex(src string) []Token {
	lex, err := p.lexDef.LexString("", src)
	if err != nil {
		panic(fmt.Sprintf("grammar: lexer cannot start: %v", err))
	}
	var toks []Token
	for {
		t, err := lex.Next()
		if err != nil {
			panic(fmt.Sprintf("grammar: the total lexer failed at %s: %v", t.Pos, err))
		}
		if p.elided[t.Type] {
			continue
		}
		if t.EOF() {
			return append(toks, Token{Kind: KindEOF, Pos: t.Pos})
		}
		toks = append(toks, Token{Kind: p.kinds[t.Type], Text: t.Value, Pos: t.Pos})
	}
}

// Parse parses a token slice as Lex returns it (ending in KindEOF; a slice
// without one is treated as ending there). On error the statement holds
// whatever participle managed to fill in, and the error is a
// participle.Error whose position is a token's position.
func (p *Parser) Parse(toks []Token) (*Statement, error) {
	peek, err := lexer.Upgrade(&sliceLexer{toks: toks, types: p.types})
	if err != nil {
		panic(fmt.Sprintf("grammar: reading a token slice cannot fail: %v", err))
	}
	return p.parser.ParseFromLexer(peek)
}

// sliceLexer feeds a token slice to participle.
type sliceLexer struct {
	toks  []Token
	types map[Kind]lexer.TokenType
	next  int
}

func (l *sliceLexer) Next() (lexer.Token, error) {
	if l.next >= len(l.toks) {
		var pos lexer.Position
		if n := len(l.toks); n > 0 {
			pos = l.toks[n-1].Pos
		}
		return lexer.EOFToken(pos), nil
	}
	t := l.toks[l.next]
	l.next++
	if t.Kind == KindEOF {
		l.next = len(l.toks)
		return lexer.EOFToken(t.Pos), nil
	}
	return lexer.Token{Type: l.types[t.Kind], Value: t.Text, Pos: t.Pos}, nil
}

// Words lists every keyword of the grammar in canonical spelling, in the
// order in which lists of expected tokens name them.
func Words() []string {
	return []string{
		"EXPLAIN", "ANALYZE", "RETRIEVE",
		"USING", "bm25", "vector", "k",
		"WHERE", "tier", "type", "patient", "time", "source", "evidence", "lang", "doc", "meta", "IN", "AND",
		"FUSE", "rrf", "weighted", "docvote", "alpha", "m",
		"EXPAND", "metapath", "HOPS", "WHEN", "entities",
		"PACK", "budget", "kmin", "weights", "lambda", "epsilon", "strategy",
		"ebm", "exact", "fifo", "semantic", "uniform", "now",
		"LIMIT",
	}
}

// Puncts lists every punctuation token of the grammar, in the order in
// which lists of expected tokens name them.
func Puncts() []string {
	return []string{"(", ")", ",", ".", "=", "!=", "<", "<=", ">", ">=", ";"}
}

// IsWord reports whether s is a keyword, ignoring case, and returns its
// canonical spelling.
func IsWord(s string) (string, bool) {
	for _, w := range Words() {
		if strings.EqualFold(w, s) {
			return w, true
		}
	}
	return "", false
}
