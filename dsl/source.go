package dsl

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// source is a statement's text; it turns positions into errors that show
// the offending line.
type source string

// errorf builds an *Error at pos with the line of s that holds it.
func (s source) errorf(pos Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...), SourceLine: s.lineAt(pos.Offset)}
}

// lineAt returns the line holding byte offset off, without its newline.
func (s source) lineAt(off int) string {
	if off < 0 || off > len(s) {
		return ""
	}
	start := strings.LastIndexByte(string(s[:off]), '\n') + 1
	end := strings.IndexByte(string(s[off:]), '\n')
	if end < 0 {
		return strings.TrimSuffix(string(s[start:]), "\r")
	}
	return strings.TrimSuffix(string(s[start:off+end]), "\r")
}

// posAt returns the position of byte offset off.
func (s source) posAt(off int) Pos {
	off = min(max(off, 0), len(s))
	prefix := string(s[:off])
	start := strings.LastIndexByte(prefix, '\n') + 1
	return Pos{
		Line:   strings.Count(prefix, "\n") + 1,
		Column: utf8.RuneCountInString(prefix[start:]) + 1,
		Offset: off,
	}
}

// advance returns the position just after text written at pos.
func advance(pos Pos, text string) Pos {
	pos.Offset += len(text)
	if nl := strings.LastIndexByte(text, '\n'); nl >= 0 {
		pos.Line += strings.Count(text, "\n")
		pos.Column = utf8.RuneCountInString(text[nl+1:]) + 1
		return pos
	}
	pos.Column += utf8.RuneCountInString(text)
	return pos
}

// stringPos returns the position of rune runeOffset of the value of the
// string literal whose opening quote is at lit, stepping over escapes. When
// the text at lit is not a string literal (a hand-built statement) it
// assumes a literal without escapes on one line.
func (s source) stringPos(lit Pos, runeOffset int) Pos {
	if lit.Offset < 0 || lit.Offset >= len(s) || s[lit.Offset] != '"' {
		lit.Column += 1 + runeOffset
		lit.Offset += 1 + runeOffset
		return lit
	}
	raw := string(s[lit.Offset+1:])
	i := 0
	for n := 0; n < runeOffset && i < len(raw) && raw[i] != '"'; n++ {
		i += literalRuneLen(raw[i:])
	}
	return advance(lit, string(s[lit.Offset:lit.Offset+1+i]))
}
