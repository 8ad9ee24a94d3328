package graph

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/medkb/medkb/internal/docio"
)

// maxLine is the longest input line accepted; longer lines are reported
// as malformed and skipped.
const maxLine = 4 << 20

// lineReader is docio's line reader with graph's policy: over-long and
// invalid UTF-8 lines are skipped and reported as malformed, as are the
// lines the caller rejects, and the read goes on.
type lineReader struct {
	lines *docio.LineReader
	name  string
	n     int    // number of the current line
	line  []byte // the current line, valid until the next scan
	err   error  // the read error that stopped scan, if any
	bad   docio.BadLines
}

func newLineReader(r io.Reader, name string) *lineReader {
	return &lineReader{lines: docio.NewLineReader(r, maxLine), name: name}
}

// scan advances to the next well-formed, non-blank line. It returns false
// at the end of input or on a read error, which is then in lr.err.
func (lr *lineReader) scan() bool {
	for lr.lines.Next() {
		lr.n, lr.line = lr.lines.N(), lr.lines.Line()
		switch {
		case lr.lines.TooLong():
			lr.reject("line longer than %d bytes", maxLine)
		case !utf8.Valid(lr.line):
			lr.reject("invalid UTF-8")
		default:
			return true
		}
	}
	if err := lr.lines.Err(); err != nil {
		lr.err = fmt.Errorf("%s:%d: %w", lr.name, lr.lines.N()+1, err)
	}
	return false
}

// reject reports the current line as malformed.
func (lr *lineReader) reject(format string, args ...any) {
	lr.bad.Add(lr.name, lr.n, fmt.Sprintf(format, args...))
}

// errorf returns an error about the current line, prefixed "file:line: ".
func (lr *lineReader) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: "+format, append([]any{lr.name, lr.n}, args...)...)
}

// result returns the read error that stopped scan, else the malformed
// lines as an *InputError, else nil.
func (lr *lineReader) result() error {
	if lr.err != nil {
		return lr.err
	}
	if lr.bad.NBad == 0 {
		return nil
	}
	return &InputError{File: lr.name, Lines: lr.bad.Bad, Bad: lr.bad.NBad}
}
