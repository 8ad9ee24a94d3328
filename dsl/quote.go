package dsl

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// A string literal is written in double quotes and may hold any Unicode,
// newlines included. The escapes are \" \\ \n \t and \uXXXX (four hex
// digits; a surrogate pair \uD83D\uDE00 makes one rune).

// escapeError is a bad escape at byte offset off of a literal.
type escapeError struct {
	off int
	msg string
}

// unquote decodes a literal as the lexer matched it, quotes included.
func unquote(lit string) (string, *escapeError) {
	body := lit[1 : len(lit)-1]
	if !strings.ContainsRune(body, '\\') {
		return body, nil
	}
	var b strings.Builder
	for i := 0; i < len(body); {
		if body[i] != '\\' {
			_, size := utf8.DecodeRuneInString(body[i:])
			b.WriteString(body[i : i+size])
			i += size
			continue
		}
		r, size, msg := decodeEscape(body[i:])
		if msg != "" {
			return "", &escapeError{off: 1 + i, msg: msg}
		}
		b.WriteRune(r)
		i += size
	}
	return b.String(), nil
}

// decodeEscape decodes the escape at the start of s (s[0] is a backslash)
// and returns the rune, the bytes it took, or a message.
func decodeEscape(s string) (rune, int, string) {
	if len(s) < 2 {
		return 0, 0, `a string cannot end in a lone \`
	}
	switch s[1] {
	case '"', '\\':
		return rune(s[1]), 2, ""
	case 'n':
		return '\n', 2, ""
	case 't':
		return '\t', 2, ""
	case 'u':
		r, ok := hex4(s[2:])
		if !ok {
			return 0, 0, `\u needs four hex digits, as in \u00e9`
		}
		if !utf16.IsSurrogate(r) {
			return r, 6, ""
		}
		if strings.HasPrefix(s[6:], `\u`) {
			if low, ok := hex4(s[8:]); ok {
				if pair := utf16.DecodeRune(r, low); pair != unicode.ReplacementChar {
					return pair, 12, ""
				}
			}
		}
		return 0, 0, `\u` + s[2:6] + ` is half of a surrogate pair; write the pair or the character itself`
	}
	_, size := utf8.DecodeRuneInString(s[1:])
	return 0, 0, `invalid escape \` + s[1:1+size] + `; use \" \\ \n \t or \uXXXX`
}

// hex4 reads four hex digits at the start of s.
func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(s[:4], 16, 32)
	if err != nil || strings.ContainsAny(s[:4], "+-_") {
		return 0, false
	}
	return rune(v), true
}

// literalRuneLen returns how many bytes of a literal's body, from its
// start, write the next rune of the value.
func literalRuneLen(body string) int {
	if body[0] != '\\' {
		_, size := utf8.DecodeRuneInString(body)
		return size
	}
	if _, size, msg := decodeEscape(body); msg == "" {
		return size
	}
	return 1
}

// quote writes s as a literal that unquote reads back as s: quotes and
// backslashes escaped, newline and tab as \n and \t, other control
// characters as \uXXXX.
func quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case unicode.IsControl(r):
			b.WriteString(`\u`)
			h := strconv.FormatUint(uint64(r), 16)
			b.WriteString(strings.Repeat("0", 4-len(h)) + h)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
