package grammar

import (
	"fmt"
	"slices"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/medkb/medkb/planner/pack"
)

// Token is one significant token: comments and whitespace are gone.
type Token struct {
	Kind Kind
	Text string // as written
	Pos  lexer.Position
}

// Parser parses token slices. It is immutable once built and safe for
// concurrent use.
type Parser struct {
	parser *participle.Parser[Statement]
}

// New builds the participle parser.
func New() (*Parser, error) {
	parser, err := participle.Build[Statement](
		participle.Lexer(definition{}),
		participle.CaseInsensitive("Ident"),
		participle.UseLookahead(1),
	)
	if err != nil {
		return nil, fmt.Errorf("grammar: %w", err)
	}
	return &Parser{parser: parser}, nil
}

// EBNF is the grammar as participle prints it.
func (p *Parser) EBNF() string { return p.parser.String() }

// Parse parses a token slice as Scan returns it (ending in KindEOF; a
// slice without one is treated as ending there). On error the statement
// holds whatever participle managed to fill in, and the error is a
// participle.Error whose position is a token's position.
func (p *Parser) Parse(toks []Token) (*Statement, error) {
	peek, err := lexer.Upgrade(&sliceLexer{toks: toks})
	if err != nil {
		panic(fmt.Sprintf("grammar: reading a token slice cannot fail: %v", err))
	}
	return p.parser.ParseFromLexer(peek)
}

// sliceLexer feeds a token slice to participle.
type sliceLexer struct {
	toks []Token
	next int
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
	return lexer.Token{Type: t.Kind.tokenType(), Value: t.Text, Pos: t.Pos}, nil
}

// Words lists every keyword of the grammar in canonical spelling, in the
// order in which lists of expected tokens name them.
func Words() []string { return slices.Clone(words) }

// words are the keywords. The strategy names are the packer's
// (pack.StrategyNames); the Strategy production spells them too, as
// participle needs, and TestVocabulary holds the two together.
var words = slices.Concat([]string{
	"EXPLAIN", "ANALYZE", "RETRIEVE",
	"USING", "bm25", "vector", "k", "scan", "f32", "int8",
	"WHERE", "tier", "type", "patient", "time", "source", "evidence", "lang", "doc", "meta", "IN", "AND",
	"GATE", "theta1", "theta2",
	"FUSE", "rrf", "weighted", "docvote", "alpha", "auto", "m", "votes", "both",
	"EXPAND", "metapath", "HOPS", "WHEN", "entities",
	"RERANK", "top",
	"PACK", "budget", "kmin", "weights", "lambda", "epsilon", "floor", "reliability", "strategy",
}, pack.StrategyNames(), []string{"now", "LIMIT"})

// Puncts lists every punctuation token of the grammar, in the order in
// which lists of expected tokens name them.
func Puncts() []string {
	return []string{"(", ")", ",", ".", "=", "!=", "<", "<=", ">", ">=", ";"}
}

// IsWord reports whether s is a keyword, ignoring case, and returns its
// canonical spelling.
func IsWord(s string) (string, bool) {
	for _, w := range words {
		if strings.EqualFold(w, s) {
			return w, true
		}
	}
	return "", false
}
