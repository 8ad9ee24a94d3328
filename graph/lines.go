package graph

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// maxLine is the longest input line accepted; longer lines are reported
// as malformed and skipped.
const maxLine = 4 << 20

// lineReader yields the lines of a text file one at a time: a leading
// UTF-8 byte-order mark and trailing "\r" are removed, line numbers count
// from 1, and over-long or invalid UTF-8 lines are reported to bad.
type lineReader struct {
	r    *bufio.Reader
	name string
	n    int // number of the line last returned
	bad  *badLines
	buf  []byte
}

func newLineReader(r io.Reader, name string, bad *badLines) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), name: name, bad: bad}
}

// next returns the next well-formed line (valid UTF-8, not too long),
// skipping and reporting the others. The slice is valid until the next
// call. At the end of input it returns io.EOF.
func (lr *lineReader) next() ([]byte, error) {
	for {
		line, tooLong, err := lr.readRaw()
		if err != nil {
			return nil, err
		}
		lr.n++
		if lr.n == 1 {
			line = bytes.TrimPrefix(line, []byte("\uFEFF"))
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch {
		case tooLong:
			lr.bad.add(lr.n, "line longer than %d bytes", maxLine)
		case !utf8.Valid(line):
			lr.bad.add(lr.n, "invalid UTF-8")
		default:
			return line, nil
		}
	}
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

// isBlank reports whether a line holds only spaces and tabs.
func isBlank(line []byte) bool {
	return len(bytes.Trim(line, " \t")) == 0
}
