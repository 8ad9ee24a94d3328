package graph

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// ParseMetapath reads a metapath (see Metapath for the syntax). Type and
// relation names are runs of letters, digits, combining marks and '_'
// (so no spaces inside a name); spaces may separate the parts. Errors are
// *MetapathError.
func ParseMetapath(s string) (*Metapath, error) {
	p := &mpParser{rs: []rune(s)}
	p.space()
	if p.eof() {
		return nil, &MetapathError{Offset: p.pos, Msg: "empty metapath"}
	}
	m := &Metapath{StartPos: p.pos}
	var err error
	if m.Start, err = p.name("a type name"); err != nil {
		return nil, err
	}
	for {
		p.space()
		if p.eof() && len(m.Steps) > 0 {
			return m, nil
		}
		if len(m.Steps) == MaxSteps {
			return nil, p.errorf("a metapath has at most %d steps", MaxSteps)
		}
		st, err := p.step()
		if err != nil {
			return nil, err
		}
		m.Steps = append(m.Steps, st)
	}
}

// mpParser walks the runes of a metapath; pos is a rune offset.
type mpParser struct {
	rs  []rune
	pos int
}

func (p *mpParser) eof() bool { return p.pos >= len(p.rs) }

func (p *mpParser) space() {
	for !p.eof() && unicode.IsSpace(p.rs[p.pos]) {
		p.pos++
	}
}

// lit consumes the literal s if it is next.
func (p *mpParser) lit(s string) bool {
	rs := []rune(s)
	if p.pos+len(rs) > len(p.rs) || string(p.rs[p.pos:p.pos+len(rs)]) != s {
		return false
	}
	p.pos += len(rs)
	return true
}

func (p *mpParser) errorf(format string, args ...any) *MetapathError {
	return &MetapathError{Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

// found describes what is at the current position, for error messages.
func (p *mpParser) found() string {
	if p.eof() {
		return "end of metapath"
	}
	end := p.pos
	for end < len(p.rs) && isNameRune(p.rs[end]) {
		end++
	}
	if end > p.pos {
		return strconv.Quote(string(p.rs[p.pos:end]))
	}
	for _, tok := range []string{"->", "<-", ".."} {
		if p.pos+2 <= len(p.rs) && string(p.rs[p.pos:p.pos+2]) == tok {
			return strconv.Quote(tok)
		}
	}
	return strconv.Quote(string(p.rs[p.pos]))
}

// spaceHint explains an unexpected name that follows another name after
// a space and is itself followed by what the parser wanted (wanted
// reports that of the text after it): the writer probably meant one name
// with a space in it.
func (p *mpParser) spaceHint(wanted func(rest string) bool) string {
	if p.eof() || !isNameRune(p.rs[p.pos]) || p.pos < 2 || !unicode.IsSpace(p.rs[p.pos-1]) {
		return ""
	}
	k := p.pos - 1
	for k > 0 && unicode.IsSpace(p.rs[k]) {
		k--
	}
	if !isNameRune(p.rs[k]) {
		return ""
	}
	after := p.pos
	for after < len(p.rs) && isNameRune(p.rs[after]) {
		after++
	}
	for after < len(p.rs) && unicode.IsSpace(p.rs[after]) {
		after++
	}
	if !wanted(string(p.rs[after:])) {
		return ""
	}
	return " (names cannot contain spaces; use _)"
}

func (p *mpParser) name(what string) (string, error) {
	start := p.pos
	for !p.eof() && isNameRune(p.rs[p.pos]) {
		p.pos++
	}
	if p.pos == start {
		return "", p.errorf("expected %s, found %s", what, p.found())
	}
	return string(p.rs[start:p.pos]), nil
}

// step reads "-rel->" or "<-rel-" (with an optional repeat) and the type
// after it.
func (p *mpParser) step() (Step, error) {
	st := Step{Min: 1, Max: 1}
	switch {
	case p.lit("<-"):
		st.Reverse = true
	case p.lit("->"):
		p.pos -= 2
		return st, p.errorf(`expected "-relation->" or "<-relation-", found "->" (the relation name is missing)`)
	case p.lit("-"):
	default:
		return st, p.errorf(`expected "-relation->" or "<-relation-", found %s%s`, p.found(), p.spaceHint(func(rest string) bool {
			return strings.HasPrefix(rest, "<-") || (strings.HasPrefix(rest, "-") && !strings.HasPrefix(rest, "->"))
		}))
	}
	p.space()
	st.RelPos = p.pos
	var err error
	if st.Relation, err = p.name("a relation name"); err != nil {
		return st, err
	}
	p.space()
	if p.lit("*") {
		if err := p.repeat(&st); err != nil {
			return st, err
		}
		p.space()
	}
	closeAt := p.pos
	if st.Reverse {
		if p.lit("->") {
			return st, &MetapathError{Offset: closeAt, Msg: fmt.Sprintf(`step "<-%s->" points both ways; write "<-%s-" or "-%s->"`, st.Relation, st.Relation, st.Relation)}
		}
		if !p.lit("-") {
			return st, p.errorf(`expected "-" to close "<-%s", found %s%s`, st.Relation, p.found(), p.spaceHint(func(rest string) bool { return strings.HasPrefix(rest, "-") }))
		}
	} else if !p.lit("->") {
		return st, p.errorf(`expected "->" to close "-%s", found %s%s`, st.Relation, p.found(), p.spaceHint(func(rest string) bool { return strings.HasPrefix(rest, "->") }))
	}
	p.space()
	st.ToPos = p.pos
	if st.To, err = p.name("a type name"); err != nil {
		return st, err
	}
	return st, nil
}

// repeat reads what follows "*": nothing, or "m..n".
func (p *mpParser) repeat(st *Step) error {
	st.Min, st.Max = 1, 0
	if p.eof() || !isASCIIDigit(p.rs[p.pos]) {
		return nil
	}
	minPos := p.pos
	lo, err := p.number()
	if err != nil {
		return err
	}
	if !p.lit("..") {
		return p.errorf(`expected ".." in the repeat range "*%d..n", found %s`, lo, p.found())
	}
	maxPos := p.pos
	if p.eof() || !isASCIIDigit(p.rs[p.pos]) {
		return p.errorf(`expected the repeat maximum after "*%d..", found %s`, lo, p.found())
	}
	hi, err := p.number()
	if err != nil {
		return err
	}
	switch {
	case lo < 1:
		return &MetapathError{Offset: minPos, Msg: "a repeat range starts at 1 or more"}
	case hi > MaxRepeat:
		return &MetapathError{Offset: maxPos, Msg: fmt.Sprintf("a step repeats at most %d times", MaxRepeat)}
	case hi < lo:
		return &MetapathError{Offset: maxPos, Msg: fmt.Sprintf("repeat range %d..%d is empty", lo, hi)}
	}
	st.Min, st.Max = lo, hi
	return nil
}

// number reads ASCII digits (at most a few, so that it cannot overflow).
func (p *mpParser) number() (int, error) {
	start, n := p.pos, 0
	for !p.eof() && isASCIIDigit(p.rs[p.pos]) {
		if p.pos-start == 3 {
			return 0, &MetapathError{Offset: start, Msg: fmt.Sprintf("a step repeats at most %d times", MaxRepeat)}
		}
		n = n*10 + int(p.rs[p.pos]-'0')
		p.pos++
	}
	return n, nil
}

func isASCIIDigit(r rune) bool { return r >= '0' && r <= '9' }
