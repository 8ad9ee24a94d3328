package grammar

import "github.com/alecthomas/participle/v2/lexer"

// Kind classifies a token for the dsl package, which never sees
// participle's numeric token types.
type Kind uint8

// The token kinds. Comment and whitespace tokens are dropped by Lex and
// never have a Kind.
const (
	KindEOF        Kind = iota
	KindString          // "..." with a closing quote; escapes not yet checked
	KindOpenString      // a string with no closing quote (runs to the end of input)
	KindNumber          // 12, 0.5, -3 (the sign is rejected later, with a message)
	KindIdent           // keywords and names, Unicode letters, marks, digits, _
	KindPunct           // ( ) , = != < <= > >= ; .
	KindChar            // any other single character: always an error
)

// The lexer rules, tried in order. The last three rules make the lexer
// total: any input becomes tokens, and the parser reports the bad token
// with a position instead of the lexer failing with its own message.
func rules() []lexer.SimpleRule {
	return []lexer.SimpleRule{
		{Name: "Comment", Pattern: `--[^\n]*`},
		{Name: "Whitespace", Pattern: `[\s\p{Zs}\x{FEFF}]+`},
		{Name: "String", Pattern: `"(?s:\\.|[^"\\])*"`},
		{Name: "OpenString", Pattern: `"(?s:\\.|[^"\\])*`},
		{Name: "Number", Pattern: `-?[0-9]+(?:\.[0-9]+)?`},
		{Name: "Ident", Pattern: `[\p{L}_][\p{L}\p{M}\p{N}_]*`},
		{Name: "Punct", Pattern: `!=|<=|>=|[(),=<>;.]`},
		{Name: "Char", Pattern: `(?s:.)`},
	}
}

// ruleKinds maps rule names to kinds; the two elided rules are absent.
func ruleKinds() map[string]Kind {
	return map[string]Kind{
		"String":     KindString,
		"OpenString": KindOpenString,
		"Number":     KindNumber,
		"Ident":      KindIdent,
		"Punct":      KindPunct,
		"Char":       KindChar,
	}
}
