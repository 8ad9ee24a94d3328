package dsl

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"

	"github.com/medkb/medkb/dsl/internal/grammar"
)

// Limits on what Parse and Check accept.
const (
	MaxStatementBytes = 256 << 10 // a whole statement, checked before parsing (room for an escaped text)
	MaxTextBytes      = 64 << 10  // the query text of RETRIEVE: a long clinical note
)

// grammarParser builds the participle parser once; it is immutable after.
var grammarParser = sync.OnceValue(func() *grammar.Parser {
	p, err := grammar.New()
	if err != nil {
		panic(fmt.Sprintf("dsl: the grammar does not build: %v", err))
	}
	return p
})

// Parse reads one statement. It checks syntax only: ranges, field names
// against values, dates and defaults are Check's. Every error is an *Error.
func Parse(src string) (*Statement, error) {
	text := source(src)
	if len(src) > MaxStatementBytes {
		return nil, text.errorf(Pos{Line: 1, Column: 1}, "statement is %d bytes; at most %d are allowed", len(src), MaxStatementBytes)
	}
	if !utf8.ValidString(src) {
		off := firstInvalidByte(src)
		return nil, text.errorf(text.posAt(off), "invalid UTF-8 (byte 0x%02x); a statement must be UTF-8 text", src[off])
	}
	g := grammarParser()
	toks := grammar.Scan(src)
	lexErr, lexAt := lexicalError(text, toks)
	tree, err := g.Parse(toks)
	if err != nil {
		at := failedToken(toks, err)
		if lexErr != nil && lexAt <= at {
			return nil, lexErr
		}
		return nil, diagnose(g, text, toks, at, tree)
	}
	if lexErr != nil {
		return nil, lexErr
	}
	stmt, e := build(text, tree)
	if e != nil {
		return nil, e
	}
	stmt.Pos = tokenPos(toks, 0)
	return stmt, nil
}

// firstInvalidByte returns the offset of the first byte of s that is not
// part of valid UTF-8.
func firstInvalidByte(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
		}
	}
	return len(s)
}

// failedToken returns the index of the token participle stopped at.
func failedToken(toks []grammar.Token, err error) int {
	var perr participle.Error
	if !errors.As(err, &perr) {
		panic(fmt.Sprintf("dsl: participle returned a non-positional error: %v", err))
	}
	off := perr.Position().Offset
	for i, t := range toks {
		if t.Pos.Offset >= off {
			return i
		}
	}
	return len(toks) - 1
}

// tokenPos returns the position of token i; the end of input is placed
// just after the last token, so that a caret points at the gap rather
// than at an empty line after trailing comments or newlines.
func tokenPos(toks []grammar.Token, i int) Pos {
	t := toks[i]
	if t.Kind == grammar.KindEOF && i > 0 {
		return advance(tokenPos(toks, i-1), toks[i-1].Text)
	}
	return Pos{Line: t.Pos.Line, Column: t.Pos.Column, Offset: t.Pos.Offset}
}

// lexicalError finds the first token that is wrong on its own: a stray
// character, an unterminated string, a bad escape, a negative number. It
// returns the error and the token's index (nil, -1 when there is none).
// Parse reports it when it comes no later than the syntax error, so the
// user always sees the first problem in the text.
func lexicalError(text source, toks []grammar.Token) (*Error, int) {
	for i, t := range toks {
		pos := tokenPos(toks, i)
		switch t.Kind {
		case grammar.KindChar:
			return text.errorf(pos, "unexpected character %q%s", t.Text, charHint(t.Text)), i
		case grammar.KindOpenString:
			return text.errorf(pos, `unterminated string (no closing ")`), i
		case grammar.KindString:
			if _, bad := unquote(t.Text); bad != nil {
				return text.errorf(advance(pos, t.Text[:bad.off]), "%s", bad.msg), i
			}
		case grammar.KindNumber:
			if strings.HasPrefix(t.Text, "-") {
				return text.errorf(pos, "negative numbers are not allowed (%s)", t.Text), i
			}
			if e := exponent(toks[i:]); e != "" {
				return text.errorf(pos, "write the number in full, without an exponent (%s)", e), i
			}
		}
	}
	return nil, -1
}

// exponent returns the exponent notation ("1e3", "2.5E-2") that toks
// start with, the lexer having split it into a number and a name
// (and a signed number), or "" when they do not.
func exponent(toks []grammar.Token) string {
	adjacent := func(k int) bool {
		return k < len(toks) && toks[k].Pos.Offset == toks[k-1].Pos.Offset+len(toks[k-1].Text)
	}
	if !adjacent(1) || toks[1].Kind != grammar.KindIdent {
		return ""
	}
	e := toks[1].Text
	if e[0] != 'e' && e[0] != 'E' || strings.TrimLeft(e[1:], "0123456789") != "" {
		return ""
	}
	if len(e) == 1 && adjacent(2) && toks[2].Kind == grammar.KindNumber {
		e += toks[2].Text
	}
	return toks[0].Text + e
}

// charHint suggests the ASCII character a stray one probably stands for.
func charHint(c string) string {
	switch c {
	case "$":
		return "; a parameter is $ and a name, such as $p"
	case "'", "‘", "’", "`":
		return "; strings use double quotes"
	case "“", "”", "＂":
		return `; use the ASCII double quote "`
	}
	ascii := map[string]string{"，": ",", "（": "(", "）": ")", "＝": "=", "；": ";", "＜": "<", "＞": ">", "．": "."}
	if a, ok := ascii[c]; ok {
		return fmt.Sprintf("; use the ASCII %q", a)
	}
	return ""
}
