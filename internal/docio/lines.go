package docio

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/medkb/medkb/internal/text"
)

// LineReader reads a text file one line at a time; it is the line reader
// of every line-based input medkb reads (documents here, graph files,
// question files). A leading UTF-8 byte-order mark and one trailing "\r"
// are removed, lines count from 1, and blank lines (white space only)
// are skipped. A line longer than the reader's limit is not kept: it is
// drained, and handed on empty with TooLong set, so that the caller
// decides whether it fails the read or is one bad line.
type LineReader struct {
	r    *bufio.Reader
	max  int
	n    int    // number of the current line
	line []byte // the current line, valid until the next call of Next
	long bool   // the current line was longer than max
	err  error  // the read error that stopped Next, if any
	buf  []byte
}

// NewLineReader returns a reader of r's lines that accepts lines of up
// to max bytes (without the "\n").
func NewLineReader(r io.Reader, max int) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Next advances to the next non-blank line, or to the next line longer
// than the limit. It returns false at the end of input or on a read
// error, which Err then returns.
func (lr *LineReader) Next() bool {
	for {
		line, long, err := lr.readRaw()
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
		if long {
			line = nil
		}
		if long || len(bytes.TrimSpace(line)) > 0 {
			lr.line, lr.long = line, long
			return true
		}
	}
}

// Line returns the current line, valid until the next call of Next.
func (lr *LineReader) Line() []byte { return lr.line }

// N returns the number of the current line, from 1; after Next has
// returned false, the number of the last line read.
func (lr *LineReader) N() int { return lr.n }

// TooLong reports whether the current line was longer than the limit.
func (lr *LineReader) TooLong() bool { return lr.long }

// Err returns the read error that stopped Next, or nil at the end of
// input. It is the reader's own error; line N()+1 is where it happened.
func (lr *LineReader) Err() error { return lr.err }

// readRaw reads one line without its "\n", draining (and flagging) lines
// longer than max.
func (lr *LineReader) readRaw() (line []byte, long bool, err error) {
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if len(lr.buf)+len(chunk) <= lr.max+1 {
			lr.buf = append(lr.buf, chunk...)
		} else {
			long = true
		}
		switch {
		case err == nil:
			return bytes.TrimSuffix(lr.buf, []byte("\n")), long, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(lr.buf) == 0 && !long {
				return nil, false, io.EOF
			}
			return lr.buf, long, nil
		default:
			return nil, false, err
		}
	}
}

// LineError is one bad input line.
type LineError struct {
	File   string
	Line   int // from 1
	Reason string
}

func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason) }

// BadLines collects the bad lines of a read: the first MaxReported in
// detail, and how many there were in all.
type BadLines struct {
	Bad  []*LineError // at most MaxReported, in file order
	NBad int          // every bad line, including those not kept
}

// Add records line of file as bad for reason.
func (b *BadLines) Add(file string, line int, reason string) {
	b.NBad++
	if len(b.Bad) < MaxReported {
		b.Bad = append(b.Bad, &LineError{File: file, Line: line, Reason: reason})
	}
}

// Summary is head followed by the kept lines, each on a line of its own
// after indent, and a count of those not kept.
func (b *BadLines) Summary(head, indent string) string {
	var sb strings.Builder
	sb.WriteString(head)
	for _, e := range b.Bad {
		sb.WriteString("\n" + indent + e.Error())
	}
	if b.NBad > len(b.Bad) {
		fmt.Fprintf(&sb, "\n%s... and %d more", indent, b.NBad-len(b.Bad))
	}
	return sb.String()
}
