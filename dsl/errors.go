package dsl

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/mattn/go-runewidth"
)

// Pos is a position in a statement's text. Line and Column count from 1,
// Column in runes (not bytes, not display cells); Offset is the byte offset
// from 0.
type Pos struct {
	Line, Column, Offset int
}

// String formats p as line:column.
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Column) }

// Error is a syntax or static-check error positioned on the offending
// token. Its Error method renders the message, the source line and a caret:
//
//	2:9: unexpected token "FUZE"; expected FUSE, EXPAND, RERANK, PACK, LIMIT or end of statement (did you mean FUSE?)
//	  FUZE rrf(k=60)
//	  ^
type Error struct {
	Pos Pos
	Msg string
	// SourceLine is the whole line of the statement that holds Pos, as
	// written; "" when the statement's text is not known (a hand-built
	// Statement), in which case Error renders the first line only.
	SourceLine string
}

// maxShown is the widest source excerpt, in display cells, that Error
// renders; longer lines are cut around the caret.
const maxShown = 76

// Error renders "line:col: msg", then the source line (leading blanks
// removed, tabs and other control characters shown as spaces) indented by
// two spaces, then a caret under the first rune of the offending token.
// Wide (East Asian) runes count two cells when placing the caret.
func (e *Error) Error() string {
	head := fmt.Sprintf("%s: %s", e.Pos, e.Msg)
	line, caret := excerpt(e.SourceLine, e.Pos.Column)
	if line == "" {
		return head
	}
	return head + "\n  " + line + "\n  " + strings.Repeat(" ", caret) + "^"
}

// excerpt prepares a source line for display and returns it with the
// caret's distance from its start in display cells.
func excerpt(src string, column int) (string, int) {
	src = strings.ToValidUTF8(src, "\uFFFD")
	var cells []cellRune
	width := runewidth.Condition{StrictEmojiNeutral: true}
	leading := true
	caret := -1
	for i, r := range []rune(src) {
		if i == column-1 {
			caret = len(cells)
			leading = false
		}
		if leading && unicode.IsSpace(r) {
			continue
		}
		leading = false
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			r = ' '
		}
		cells = append(cells, cellRune{r, width.RuneWidth(r)})
	}
	for len(cells) > 0 && cells[len(cells)-1].r == ' ' {
		cells = cells[:len(cells)-1]
	}
	if len(cells) == 0 {
		return "", 0
	}
	if caret < 0 || caret > len(cells) { // past the end: point just after it
		caret = len(cells)
	}
	from, to := window(cells, caret)
	var b strings.Builder
	pad := 0
	if from > 0 {
		b.WriteString("...")
		pad = 3
	}
	for i := from; i < to; i++ {
		if i < caret {
			pad += cells[i].width
		}
		b.WriteRune(cells[i].r)
	}
	if to < len(cells) {
		b.WriteString("...")
	}
	return b.String(), pad
}

type cellRune struct {
	r     rune
	width int
}

// window picks the runes [from, to) to show so that the excerpt stays
// within maxShown cells and the caret stays in view, a third of the way in
// when the line must be cut.
func window(cells []cellRune, caret int) (from, to int) {
	total := 0
	for _, c := range cells {
		total += c.width
	}
	if total <= maxShown {
		return 0, len(cells)
	}
	from = caret
	for lead := 0; from > 0 && lead+cells[from-1].width <= maxShown/3; from-- {
		lead += cells[from-1].width
	}
	to = from
	for used := 0; to < len(cells) && used+cells[to].width <= maxShown; to++ {
		used += cells[to].width
	}
	return from, to
}
