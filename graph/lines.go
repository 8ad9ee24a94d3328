package graph

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/medkb/medkb/internal/text"
)

// maxLine is the longest input line accepted; longer lines are reported
// as malformed and skipped.
const maxLine = 4 << 20

// lineReader yields the lines of a text file one at a time, in the manner
// of bufio.Scanner: a leading UTF-8 byte-order mark and trailing "\r" are
// removed, line numbers count from 1, blank lines (spaces and tabs only)
// are skipped, and over-long or invalid UTF-8 lines are skipped and
// reported as malformed, as are the lines the caller rejects.
type lineReader struct {
	r    *bufio.Reader
	name string
	n    int    // number of the current line
	line []byte // the current line, valid until the next scan
	err  error  // the read error that stopped scan, if any
	bad  badLines
	buf  []byte
}

func newLineReader(r io.Reader, name string) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), name: name, bad: badLines{file: name}}
}

// scan advances to the next well-formed, non-blank line. It returns false
// at the end of input or on a read error, which is then in lr.err.
func (lr *lineReader) scan() bool {
	for {
		line, tooLong, err := lr.readRaw()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				lr.err = err
			}
			return false
		}
		lr.n++
		if lr.n == 1 {
			line = text.TrimBOM(line)
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch {
		case tooLong:
			lr.reject("line longer than %d bytes", maxLine)
		case !utf8.Valid(line):
			lr.reject("invalid UTF-8")
		case len(bytes.Trim(line, " \t")) > 0:
			lr.line = line
			return true
		}
	}
}

// reject reports the current line as malformed.
func (lr *lineReader) reject(format string, args ...any) {
	lr.bad.add(lr.n, format, args...)
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
	return lr.bad.result()
}

// readRaw reads one line without its "\n", draining (and flagging) lines
// longer than maxLine.
func (lr *lineReader) readRaw() (line []byte, tooLong bool, err error) {
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if len(lr.buf)+len(chunk) <= maxLine+1 {
			lr.buf = append(lr.buf, chunk...)
		} else {
			tooLong = true
		}
		switch {
		case err == nil:
			return bytes.TrimSuffix(lr.buf, []byte("\n")), tooLong, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(lr.buf) == 0 && !tooLong {
				return nil, false, io.EOF
			}
			return lr.buf, tooLong, nil
		default:
			return nil, false, fmt.Errorf("%s:%d: %w", lr.name, lr.n+1, err)
		}
	}
}
