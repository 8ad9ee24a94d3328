package graph

import (
	"errors"
	"fmt"

	"github.com/medkb/medkb/internal/docio"
)

// ErrBadInput is returned (wrapped in an *InputError) when a graph input
// file has malformed lines.
var ErrBadInput = errors.New("medkb: bad graph input")

// ErrUnknownFormat is returned by Detect when a file's content matches no
// format this package or the document reader knows.
var ErrUnknownFormat = errors.New("medkb: unknown input format")

// InputError reports the malformed lines of one file: the first
// docio.MaxReported (20) of them, and how many there were in all. It
// wraps ErrBadInput.
type InputError struct {
	File  string
	Lines []*docio.LineError // at most 20, in file order
	Bad   int                // every malformed line, including those not kept
}

func (e *InputError) Error() string {
	b := docio.BadLines{Bad: e.Lines, NBad: e.Bad}
	return b.Summary(fmt.Sprintf("%s: %d malformed line(s)", e.File, e.Bad), "\t")
}

func (e *InputError) Unwrap() error { return ErrBadInput }
