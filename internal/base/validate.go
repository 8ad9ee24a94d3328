package base

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits on one document, so that one bad record cannot exhaust memory or
// bloat every chunk it is copied into (the title and type head each
// chunk's BM25 text; meta is indexed with each chunk).
const (
	MaxIDBytes        = 512
	MaxTextBytes      = 1 << 20 // 1 MiB of text per document
	MaxFieldBytes     = 256     // type, patient, source, evidence, lang
	MaxTitleBytes     = 1024
	MaxDateBytes      = 64 // time, published
	MaxMetaKeys       = 64
	MaxMetaKeyBytes   = 128
	MaxMetaValueBytes = 1024
	MaxVectorDim      = 8192
)

// Validate checks a document as given on input: an id and a text that is
// not only white space; every field within its limit and valid UTF-8;
// identifiers (id, type, patient, source, evidence, lang, embedder, meta keys)
// without control characters, and the id without surrounding white space;
// a known tier when given; a readable time and published date; a
// finite vector that is not all zeros; and an embedder only beside a
// vector. It does not know the store's embedder or dimension; the ingest
// checks those. Each error names the field and, for a limit, the limit.
func (d *Doc) Validate() error {
	_, err := d.ValidateDay()
	return err
}

// ValidateDay is Validate that also returns the day Time names (NoDay for
// none), which checking it has read: an ingest reads a date once.
func (d *Doc) ValidateDay() (Day, error) {
	switch {
	case d.ID == "":
		return NoDay, errors.New(`missing "id"`)
	case d.Text == "":
		return NoDay, errors.New(`missing "text"`)
	}
	for _, f := range []struct {
		name, v string
		max     int
		ident   bool // an identifier: no control characters
	}{
		{"id", d.ID, MaxIDBytes, true},
		{"text", d.Text, MaxTextBytes, false},
		{"type", d.Type, MaxFieldBytes, true},
		{"patient", d.Patient, MaxFieldBytes, true},
		{"source", d.Source, MaxFieldBytes, true},
		{"evidence", d.Evidence, MaxFieldBytes, true},
		{"lang", d.Lang, MaxFieldBytes, true},
		{"title", d.Title, MaxTitleBytes, false},
		{"time", d.Time, MaxDateBytes, false},
		{"published", d.Published, MaxDateBytes, false},
		{"embedder", d.Embedder, MaxFieldBytes, true},
	} {
		if err := checkString(fmt.Sprintf("%q", f.name), f.v, f.max, f.ident); err != nil {
			return NoDay, err
		}
	}
	if strings.TrimSpace(d.ID) != d.ID {
		return NoDay, errors.New(`"id" has white space around it`)
	}
	if strings.TrimSpace(d.Text) == "" {
		return NoDay, errors.New(`"text" is only white space`)
	}
	if len(d.Meta) > MaxMetaKeys {
		return NoDay, fmt.Errorf(`"meta" has %d keys, more than %d`, len(d.Meta), MaxMetaKeys)
	}
	for k, v := range d.Meta {
		if k == "" {
			return NoDay, errors.New(`"meta" has an empty key`)
		}
		if err := checkString("meta key", k, MaxMetaKeyBytes, true); err != nil {
			return NoDay, err
		}
		if err := checkString(fmt.Sprintf("meta %q", k), v, MaxMetaValueBytes, false); err != nil {
			return NoDay, err
		}
	}
	if d.Tier != TierNone && !d.Tier.Valid() {
		return NoDay, fmt.Errorf("unknown tier %d", d.Tier)
	}
	day, err := ParseDay(d.Time)
	if err != nil {
		return NoDay, fmt.Errorf(`"time": %w`, err)
	}
	if _, err := ParseDay(d.Published); err != nil {
		return NoDay, fmt.Errorf(`"published": %w`, err)
	}
	if len(d.Vector) > MaxVectorDim {
		return NoDay, fmt.Errorf(`"vector" has %d numbers, more than %d`, len(d.Vector), MaxVectorDim)
	}
	zero := true
	for i, f := range d.Vector {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return NoDay, fmt.Errorf(`"vector"[%d] is not a finite number`, i)
		}
		zero = zero && f == 0
	}
	if len(d.Vector) > 0 && zero {
		return NoDay, errors.New(`"vector" is all zeros`)
	}
	if d.Embedder != "" && len(d.Vector) == 0 {
		return NoDay, errors.New(`"embedder" names the model of a "vector", and there is none`)
	}
	return day, nil
}

// checkString checks one field: at most max bytes, valid UTF-8 and, for
// an identifier, free of control characters (a newline or NUL in an id
// breaks every line-oriented output that prints it).
func checkString(name, v string, max int, ident bool) error {
	switch {
	case len(v) > max:
		return fmt.Errorf("%s is %d bytes, more than %d", name, len(v), max)
	case !utf8.ValidString(v):
		return fmt.Errorf("%s is not valid UTF-8", name)
	case ident && strings.IndexFunc(v, unicode.IsControl) >= 0:
		return fmt.Errorf("%s has a control character", name)
	}
	return nil
}
