package docio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/text"
)

// MaxLineBytes bounds one input line (a document with its vector).
const MaxLineBytes = 8 << 20

// MaxReported is how many bad lines a Result keeps in detail.
const MaxReported = 20

// Result is what a read produced: the good documents with their line
// numbers (Read only; Scan hands them to its callback instead), how many
// there were, the first MaxReported bad lines, and how many were bad.
type Result struct {
	Docs  []base.Doc
	Lines []int
	Good  int
	BadLines
}

// Err summarises the bad lines as one error, or nil when there were none.
func (r *Result) Err() error {
	if r.NBad == 0 {
		return nil
	}
	return &BadInputError{Summary: r.Summary(fmt.Sprintf("%d bad line(s)", r.NBad), "  "), Result: r}
}

// BadInputError carries a Result with bad lines.
type BadInputError struct {
	Summary string
	Result  *Result
}

func (e *BadInputError) Error() string { return e.Summary }

// inputDoc is the wire form: meta values may be any scalar.
type inputDoc struct {
	base.Doc
	Meta map[string]any `json:"meta,omitempty"`
}

// ReadJSONL reads documents, one JSON object a line; blank lines are skipped.
func ReadJSONL(r io.Reader, file string) (*Result, error) {
	return collect(r, file, ScanJSONL)
}

// ScanJSONL is ReadJSONL calling fn with each good document and its line
// instead of keeping them. fn may return a *LineError (its reason alone
// is used) to count the line as bad for a reason only the caller can
// judge, such as the store's dimension; any other error from fn stops
// the scan and is returned as it is.
func ScanJSONL(r io.Reader, file string, fn func(line int, d base.Doc) error) (*Result, error) {
	res := &Result{}
	err := EachLine(r, func(n int, line []byte) error {
		d, err := decodeDoc(line)
		if err != nil {
			res.Add(file, n, err.Error())
			return nil
		}
		return res.call(file, n, *d, fn)
	})
	return res, wrapRead(file, err)
}

// call hands d to fn and counts it as good, or as bad when fn returns a
// *LineError.
func (r *Result) call(file string, n int, d base.Doc, fn func(int, base.Doc) error) error {
	var le *LineError
	switch err := fn(n, d); {
	case errors.As(err, &le):
		r.Add(file, n, le.Reason)
	case err != nil:
		return err
	default:
		r.Good++
	}
	return nil
}

// collect runs a scan keeping every good document and its line.
func collect(r io.Reader, file string, scan func(io.Reader, string, func(int, base.Doc) error) (*Result, error)) (*Result, error) {
	var docs []base.Doc
	var lines []int
	res, err := scan(r, file, func(n int, d base.Doc) error {
		docs = append(docs, d)
		lines = append(lines, n)
		return nil
	})
	res.Docs, res.Lines = docs, lines
	return res, err
}

func decodeDoc(line []byte) (*base.Doc, error) {
	if !utf8.Valid(line) {
		return nil, fmt.Errorf("invalid UTF-8")
	}
	var in inputDoc
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&in); err != nil {
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		if errors.As(err, &syntax) || errors.As(err, &typ) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("malformed JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
		}
		return nil, err // a field's own decoder, e.g. an unknown tier
	}
	if dec.More() {
		return nil, fmt.Errorf("malformed JSON: more than one value on the line")
	}
	d := in.Doc
	if len(in.Meta) > 0 {
		d.Meta = make(map[string]string, len(in.Meta))
		for k, v := range in.Meta {
			switch v := v.(type) {
			case string:
				d.Meta[k] = v
			case float64:
				d.Meta[k] = strconv.FormatFloat(v, 'f', -1, 64)
			case bool:
				d.Meta[k] = strconv.FormatBool(v)
			case nil:
			default:
				return nil, fmt.Errorf("meta %q: want a string, number or boolean", k)
			}
		}
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return &d, nil
}

// ReadTSV reads "id<TAB>text" lines (NFCorpus layout). A first non-blank
// line whose first field is "id" or "_id" is a header.
func ReadTSV(r io.Reader, file string) (*Result, error) {
	return collect(r, file, ScanTSV)
}

// ScanTSV is ReadTSV calling fn as ScanJSONL does.
func ScanTSV(r io.Reader, file string, fn func(line int, d base.Doc) error) (*Result, error) {
	res := &Result{}
	first := true
	err := EachLine(r, func(n int, line []byte) error {
		if !utf8.Valid(line) {
			res.Add(file, n, "invalid UTF-8")
			return nil
		}
		id, text, ok := strings.Cut(string(line), "\t")
		header := first && (id == "id" || id == "_id")
		first = false
		if header {
			return nil
		}
		if !ok {
			res.Add(file, n, "want id<TAB>text")
			return nil
		}
		d := base.Doc{ID: strings.TrimSpace(id), Text: strings.TrimSpace(text)}
		if err := d.Validate(); err != nil {
			res.Add(file, n, err.Error())
			return nil
		}
		return res.call(file, n, d, fn)
	})
	return res, wrapRead(file, err)
}

// EachLine calls fn with each non-blank line of r (see LineReader) and
// its number; a line longer than MaxLineBytes fails the read. An error from fn
// stops the reading and is returned as it is.
func EachLine(r io.Reader, fn func(n int, line []byte) error) error {
	lr := NewLineReader(r, MaxLineBytes)
	for lr.Next() {
		if lr.TooLong() {
			return fmt.Errorf("line %d: %w", lr.N(), bufio.ErrTooLong)
		}
		if err := fn(lr.N(), lr.Line()); err != nil {
			return &stopError{err}
		}
	}
	if err := lr.Err(); err != nil {
		return fmt.Errorf("line %d: %w", lr.N()+1, err)
	}
	return nil
}

// stopError carries an error of EachLine's callback past wrapRead.
type stopError struct{ err error }

func (e *stopError) Error() string { return e.err.Error() }

func wrapRead(file string, err error) error {
	var stop *stopError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &stop):
		return stop.err
	}
	if strings.Contains(err.Error(), "token too long") {
		return fmt.Errorf("%s: a line is longer than %d bytes: %w", file, MaxLineBytes, err)
	}
	return fmt.Errorf("%s: %w", file, err)
}

// Read sniffs the format: JSON Lines when the first character after
// white space and a byte-order mark is '{', TSV otherwise. It only peeks,
// so line numbers count from the input's first line; blank space longer
// than sniffBytes before the first character reads as TSV.
func Read(r io.Reader, file string) (*Result, error) {
	return collect(r, file, Scan)
}

// Scan is Read calling fn as ScanJSONL does.
func Scan(r io.Reader, file string, fn func(line int, d base.Doc) error) (*Result, error) {
	br := bufio.NewReaderSize(r, sniffBytes)
	start := 0
	if b, _ := br.Peek(len(text.BOM)); string(b) == text.BOM {
		start = len(text.BOM)
	}
	for i := start; ; i++ {
		b, _ := br.Peek(i + 1)
		if len(b) <= i || !isBlank(b[i]) {
			if len(b) > i && b[i] == '{' {
				return ScanJSONL(br, file, fn)
			}
			return ScanTSV(br, file, fn)
		}
	}
}

// sniffBytes is how far Read looks for the first character.
const sniffBytes = 64 << 10

func isBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }
