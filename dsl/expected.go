package dsl

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/medkb/medkb/dsl/internal/grammar"
)

// diagnose turns participle's failure at token i into a message that says
// what was found, what could have come instead, and, when it can tell,
// why: a clause out of order or repeated, or a misspelled keyword.
func diagnose(g *grammar.Parser, text source, toks []grammar.Token, i int, partial *grammar.Statement) *Error {
	bad := toks[i]
	exp := expectation(g.Expect(toks, i, partial))
	if fresh := without(exp.Words, alreadyGiven(partial)); len(fresh) > 0 || exp.others() {
		exp.Words = fresh
	}
	if bad.Kind == grammar.KindEOF && i == 0 {
		return text.errorf(Pos{Line: 1, Column: 1}, "empty statement; expected %s", exp)
	}
	at := tokenPos(toks, i)
	msg := fmt.Sprintf("unexpected %s; expected %s", describe(bad), exp)
	if h := hint(bad, exp, partial); h != "" {
		msg += " (" + h + ")"
	}
	return text.errorf(at, "%s", msg)
}

// expectation is what the grammar would have accepted, with a renderer.
type expectation grammar.Expectation

// String lists the expectation for a human: "FUSE, PACK or end of statement".
func (e expectation) String() string {
	var items []string
	for _, p := range e.Puncts {
		items = append(items, fmt.Sprintf("%q", p))
	}
	items = append(items, e.Words...)
	if e.AnyString {
		items = append(items, "a string")
	}
	if e.AnyNumber {
		items = append(items, "a number")
	}
	if e.AnyName {
		items = append(items, "a name")
	}
	if e.End {
		items = append(items, "end of statement")
	}
	switch len(items) {
	case 0:
		return "nothing more" // cannot happen with this grammar
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// others reports whether anything but keywords is expected.
func (e expectation) others() bool {
	return len(e.Puncts) > 0 || e.AnyString || e.AnyNumber || e.AnyName || e.End
}

func (e expectation) has(word string) bool { return indexOf(e.Words, word) >= 0 }

// alreadyGiven lists the USING arms and PACK options participle filled in
// before failing: the grammar allows them again, but build would reject a
// repeat, so messages do not offer them (unless nothing else is left).
func alreadyGiven(s *grammar.Statement) []string {
	var given []string
	if s != nil && s.Using != nil {
		for _, a := range s.Using.Arms {
			given = append(given, strings.ToLower(a.Name))
		}
	}
	if s != nil && s.Pack != nil {
		for _, o := range s.Pack.Options {
			given = append(given, packOptionName(o))
		}
	}
	return given
}

// without returns words minus the ones in drop.
func without(words, drop []string) []string {
	var out []string
	for _, w := range words {
		if indexOf(drop, w) < 0 {
			out = append(out, w)
		}
	}
	return out
}

// describe names a token the way messages quote it.
func describe(t grammar.Token) string {
	switch t.Kind {
	case grammar.KindEOF:
		return "end of statement"
	case grammar.KindString:
		return "string " + shorten(t.Text)
	}
	return fmt.Sprintf("token %q", t.Text)
}

// shorten cuts a long string literal for quoting in a message.
func shorten(lit string) string {
	const keep = 24
	lit = strings.ReplaceAll(lit, "\n", `\n`)
	if utf8.RuneCountInString(lit) <= keep {
		return lit
	}
	return string([]rune(lit)[:keep]) + `..."`
}

// clauseOrder lists the clauses in pipeline order.
func clauseOrder() []string {
	return []string{"EXPLAIN", "RETRIEVE", "USING", "WHERE", "GATE", "FUSE", "EXPAND", "RERANK", "PACK", "LIMIT"}
}

// hint explains an unexpected name when it can.
func hint(bad grammar.Token, exp expectation, partial *grammar.Statement) string {
	if bad.Kind != grammar.KindIdent {
		return ""
	}
	if h := clauseHint(bad.Text, exp, partial); h != "" {
		return h
	}
	if exp.AnyString && !exp.AnyNumber && !exp.AnyName && len(exp.Words) == 0 {
		return "strings go in double quotes"
	}
	if w := closest(bad.Text, exp.Words); w != "" {
		return "did you mean " + w + "?"
	}
	return ""
}

// clauseHint explains a clause keyword met where it cannot stand: a
// clause out of pipeline order, repeated, or before RETRIEVE.
func clauseHint(word string, exp expectation, partial *grammar.Statement) string {
	order := clauseOrder()
	kw, ok := grammar.IsWord(word)
	if kw == "ANALYZE" {
		return "ANALYZE goes right after EXPLAIN"
	}
	rank := indexOf(order, kw)
	if !ok || rank < 0 {
		return ""
	}
	switch {
	case kw == "EXPLAIN":
		return "EXPLAIN must come first"
	case kw != "RETRIEVE" && exp.has("RETRIEVE"):
		return `a statement starts with RETRIEVE "<query text>"`
	case !exp.End:
		return "" // inside a clause: the expected list says what is missing
	}
	present := presentClauses(partial)
	for _, c := range present {
		if c.keyword == kw {
			return fmt.Sprintf("only one %s clause is allowed; the first is at %s", kw, c.pos)
		}
	}
	for _, later := range order[rank+1:] {
		for _, c := range present {
			if c.keyword == later {
				return fmt.Sprintf("%s must come before %s", kw, later)
			}
		}
	}
	return ""
}

type clauseAt struct {
	keyword string
	pos     Pos
}

// presentClauses lists the clauses participle filled in before failing.
func presentClauses(s *grammar.Statement) []clauseAt {
	var out []clauseAt
	if s == nil {
		return out
	}
	if s.Retrieve != nil {
		out = append(out, clauseAt{"RETRIEVE", pos(s.Retrieve.Pos)})
	}
	if s.Using != nil {
		out = append(out, clauseAt{"USING", pos(s.Using.Pos)})
	}
	if s.Where != nil {
		out = append(out, clauseAt{"WHERE", pos(s.Where.Pos)})
	}
	if s.Gate != nil {
		out = append(out, clauseAt{"GATE", pos(s.Gate.Pos)})
	}
	if s.Fuse != nil {
		out = append(out, clauseAt{"FUSE", pos(s.Fuse.Pos)})
	}
	if s.Expand != nil {
		out = append(out, clauseAt{"EXPAND", pos(s.Expand.Pos)})
	}
	if s.Rerank != nil {
		out = append(out, clauseAt{"RERANK", pos(s.Rerank.Pos)})
	}
	if s.Pack != nil {
		out = append(out, clauseAt{"PACK", pos(s.Pack.Pos)})
	}
	if s.Limit != nil {
		out = append(out, clauseAt{"LIMIT", pos(s.Limit.Pos)})
	}
	return out
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// closest returns the candidate nearest to s (ignoring case) when it is
// near enough to be a misspelling: at most one edit for words of up to
// three letters, at most two for longer ones, never for one-letter words.
func closest(s string, candidates []string) string {
	best, bestDist := "", -1
	for _, c := range candidates {
		d := editDistance(strings.ToLower(s), strings.ToLower(c))
		limit := min(2, utf8.RuneCountInString(c)/2)
		if d <= limit && (bestDist < 0 || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the optimal-string-alignment distance between a and b,
// in runes: insertions, deletions, substitutions and swaps of two
// neighbours each cost one, so "tyep" is one edit from "type".
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
