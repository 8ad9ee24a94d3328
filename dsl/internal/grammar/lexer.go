package grammar

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Kind classifies a token.
type Kind uint8

// The token kinds. Comments and whitespace never become tokens.
const (
	KindEOF        Kind = iota
	KindString          // "..." with its closing quote; escapes are checked by dsl
	KindOpenString      // a string with no closing quote: runs to the end of input
	KindNumber          // 12, 0.5, -3 (dsl rejects the sign, with a message)
	KindIdent           // keywords and names
	KindPunct           // ( ) , = != < <= > >= ; .
	KindChar            // any other single character: always an error
	KindParam           // $name: a named parameter, bound after parsing
)

// tokenType maps a kind to participle's token type; EOF is lexer.EOF (-1)
// and the others follow downwards, as participle's own lexers number them.
func (k Kind) tokenType() lexer.TokenType { return lexer.TokenType(-1 - int(k)) }

// definition is the lexer participle builds the grammar against: the
// symbols name the token kinds, and lexing is Scan.
type definition struct{}

func (definition) Symbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF":        KindEOF.tokenType(),
		"String":     KindString.tokenType(),
		"OpenString": KindOpenString.tokenType(),
		"Number":     KindNumber.tokenType(),
		"Ident":      KindIdent.tokenType(),
		"Punct":      KindPunct.tokenType(),
		"Char":       KindChar.tokenType(),
		"Param":      KindParam.tokenType(),
	}
}

func (definition) Lex(_ string, r io.Reader) (lexer.Lexer, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return &sliceLexer{toks: Scan(string(src))}, nil
}

// Scan splits src into tokens, dropping whitespace (Unicode spaces
// included) and "--" comments. It is total: a character that starts no
// token becomes a KindChar token and a string without its closing quote a
// KindOpenString token, so every problem reaches the parser as a token
// with a position. The last token is always KindEOF.
//
//	name    letter or _, then letters, marks, digits, _   (Unicode)
//	number  -?[0-9]+(\.[0-9]+)?
//	string  " ... " with \ escaping the next character; may span lines
//	param   $ then a name, no space between: $q, $patient_id
func Scan(src string) []Token {
	var toks []Token
	pos := lexer.Position{Line: 1, Column: 1}
	for rest := src; rest != ""; {
		r, size := utf8.DecodeRuneInString(rest)
		n, kind := 0, KindChar
		switch {
		case IsSpace(r):
			n, kind = spanOf(rest, IsSpace), KindEOF
		case strings.HasPrefix(rest, "--"):
			n, kind = strings.IndexByte(rest+"\n", '\n'), KindEOF
		case r == '"':
			n, kind = scanString(rest)
		case isDigit(r) || r == '-' && len(rest) > 1 && isDigit(rune(rest[1])):
			n, kind = scanNumber(rest), KindNumber
		case r == '$' && len(rest) > 1 && startsName(rest[1:]):
			n, kind = 1+nameLen(rest[1:]), KindParam
		case isNameStart(r):
			n, kind = size+spanOf(rest[size:], isNamePart), KindIdent
		default:
			n, kind = scanPunct(rest), KindPunct
			if n == 0 {
				n, kind = size, KindChar
			}
		}
		if kind != KindEOF { // whitespace and comments are skipped
			toks = append(toks, Token{Kind: kind, Text: rest[:n], Pos: pos})
		}
		pos.Advance(rest[:n])
		rest = rest[n:]
	}
	return append(toks, Token{Kind: KindEOF, Pos: pos})
}

// scanString measures the string literal at the start of s.
func scanString(s string) (int, Kind) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				_, size := utf8.DecodeRuneInString(s[i+1:])
				i += size
			}
		case '"':
			return i + 1, KindString
		}
	}
	return len(s), KindOpenString
}

// scanNumber measures the number at the start of s.
func scanNumber(s string) int {
	n := 0
	if s[0] == '-' {
		n = 1
	}
	n += spanOf(s[n:], isDigit)
	if n+1 < len(s) && s[n] == '.' && isDigit(rune(s[n+1])) {
		n += 1 + spanOf(s[n+1:], isDigit)
	}
	return n
}

// scanPunct measures the punctuation at the start of s, 0 if none.
func scanPunct(s string) int {
	for _, p := range []string{"!=", "<=", ">="} {
		if strings.HasPrefix(s, p) {
			return 2
		}
	}
	if strings.IndexByte("(),=<>;.", s[0]) >= 0 {
		return 1
	}
	return 0
}

// spanOf returns the length of the prefix of s whose runes satisfy ok.
func spanOf(s string, ok func(rune) bool) int {
	for i, r := range s {
		if !ok(r) {
			return i
		}
	}
	return len(s)
}

// IsSpace reports whether r separates tokens: Unicode white space (the
// ideographic space U+3000 too) and the byte-order mark.
func IsSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// IsName reports whether s is a single name token.
func IsName(s string) bool {
	r, size := utf8.DecodeRuneInString(s)
	return s != "" && isNameStart(r) && spanOf(s[size:], isNamePart) == len(s)-size
}

// startsName reports whether s begins with a rune that can start a name.
func startsName(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isNameStart(r)
}

// nameLen measures the name at the start of s, which startsName accepted.
func nameLen(s string) int {
	_, size := utf8.DecodeRuneInString(s)
	return size + spanOf(s[size:], isNamePart)
}

func isNameStart(r rune) bool { return unicode.IsLetter(r) || r == '_' }

func isNamePart(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r) || r == '_'
}

func isDigit(r rune) bool { return '0' <= r && r <= '9' }
