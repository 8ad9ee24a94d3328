package graph

import (
	"fmt"
	"strings"
	"unicode"
)

// isNameRune reports whether r may appear in a type or relation name:
// any Unicode letter, digit, combining mark, or '_'.
func isNameRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r)
}

// IsName reports whether s can be written as a type or relation name in a
// metapath: non-empty, only letters, digits, combining marks and '_'.
// Readers reject types and relations that are not names, so that every
// type and relation in a graph can be named in a query.
func IsName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !isNameRune(r) {
			return false
		}
	}
	return true
}

// checkTriple validates the fields every triple needs; it returns a
// message for the caller's line error, or "" when the triple is good.
func checkTriple(head, headType, rel, tail, tailType string) string {
	switch {
	case head == "":
		return `empty "head"`
	case tail == "":
		return `empty "tail"`
	}
	for _, f := range []struct{ field, v string }{
		{"head_type", headType}, {"relation", rel}, {"tail_type", tailType},
	} {
		if !IsName(f.v) {
			return fmt.Sprintf("%s %q is not a name (letters, digits and _ only)", f.field, f.v)
		}
	}
	return ""
}

// typeName turns a free-text kind such as Hetionet's "Biological Process"
// into a name by replacing each run of spaces with '_'.
func typeName(kind string) string {
	return strings.Join(strings.Fields(kind), "_")
}
