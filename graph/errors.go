package graph

import (
	"errors"
	"fmt"
	"strings"
)

// ErrBadInput is returned (wrapped in an *InputError) when a graph input
// file has malformed lines.
var ErrBadInput = errors.New("medkb: bad graph input")

// ErrUnknownFormat is returned by Detect when a file's content matches no
// format this package or the document reader knows.
var ErrUnknownFormat = errors.New("medkb: unknown input format")

// maxLineErrors is how many bad lines an InputError keeps.
const maxLineErrors = 20

// LineError is one malformed input line.
type LineError struct {
	File string
	Line int // from 1
	Msg  string
}

func (e LineError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// InputError reports the malformed lines of one file: the first 20 of
// them, and how many there were in all. It wraps ErrBadInput.
type InputError struct {
	File  string
	Lines []LineError // at most 20, in file order
	Bad   int         // every malformed line, including those not kept
}

func (e *InputError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d malformed line(s)", e.File, e.Bad)
	for _, l := range e.Lines {
		b.WriteString("\n\t")
		b.WriteString(l.Error())
	}
	if e.Bad > len(e.Lines) {
		fmt.Fprintf(&b, "\n\t... and %d more", e.Bad-len(e.Lines))
	}
	return b.String()
}

func (e *InputError) Unwrap() error { return ErrBadInput }

// badLines collects the malformed lines of one file.
type badLines struct {
	file string
	err  *InputError
}

func (b *badLines) add(line int, format string, args ...any) {
	if b.err == nil {
		b.err = &InputError{File: b.file}
	}
	b.err.Bad++
	if len(b.err.Lines) < maxLineErrors {
		b.err.Lines = append(b.err.Lines, LineError{File: b.file, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
}

// result returns the collected *InputError, or nil when every line was good.
func (b *badLines) result() error {
	if b.err == nil {
		return nil
	}
	return b.err
}
