package graph

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/medkb/medkb/internal/base"
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

// Limits on graph records, so that one bad line can neither make a key
// bbolt refuses (32 KiB: the whole write would fail) nor bloat the linker.
const (
	MaxNameBytes   = 1024 // an entity name or alias, a triple's head or tail
	MaxTypeBytes   = 128  // a type or relation
	MaxSourceBytes = 256  // a triple's source
	MaxAliases     = 256  // aliases of one entity
)

// CheckEntity returns what makes e unfit for a store, as the readers
// check their lines (after trimming them), or nil.
func CheckEntity(e base.Entity) error { return msgErr(checkEntity(e)) }

// CheckTriple returns what makes t unfit for a store, as the readers
// check their lines (after trimming them), or nil.
func CheckTriple(t base.Triple) error { return msgErr(checkTriple(t)) }

func msgErr(msg string) error {
	if msg == "" {
		return nil
	}
	return errors.New(msg)
}

// checkTriple validates the fields every triple needs; it returns a
// message for the caller's line error, or "" when the triple is good.
func checkTriple(t base.Triple) string {
	for _, f := range []struct{ field, v string }{{`"head"`, t.Head}, {`"tail"`, t.Tail}} {
		if msg := checkName(f.field, f.v); msg != "" {
			return msg
		}
	}
	for _, f := range []struct{ field, v string }{
		{"head_type", t.HeadType}, {"relation", t.Relation}, {"tail_type", t.TailType},
	} {
		if msg := checkType(f.field, f.v); msg != "" {
			return msg
		}
	}
	return checkText("source", t.Source, MaxSourceBytes)
}

// checkName validates an entity name or alias: not empty, within
// MaxNameBytes, and without control characters (a NUL would split the
// store's key, whose parts it separates).
func checkName(field, v string) string {
	if v == "" {
		return "empty " + field
	}
	return checkText(field, v, MaxNameBytes)
}

// checkType validates a type or relation: a name within MaxTypeBytes.
func checkType(field, v string) string {
	switch {
	case len(v) > MaxTypeBytes:
		return fmt.Sprintf("%s is %d bytes, more than %d", field, len(v), MaxTypeBytes)
	case !IsName(v):
		return fmt.Sprintf("%s %q is not a name (letters, digits and _ only)", field, v)
	}
	return ""
}

// checkText checks a free-text field's length and control characters.
func checkText(field, v string, limit int) string {
	switch {
	case len(v) > limit:
		return fmt.Sprintf("%s is %d bytes, more than %d", field, len(v), limit)
	case strings.IndexFunc(v, unicode.IsControl) >= 0:
		return field + " has a control character"
	}
	return ""
}

// typeName turns a free-text kind such as Hetionet's "Biological Process"
// into a name by replacing each run of spaces with '_'.
func typeName(kind string) string {
	return strings.Join(strings.Fields(kind), "_")
}
