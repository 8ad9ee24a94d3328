package base

import (
	"errors"
	"fmt"
	"math"
	"unicode/utf8"
)

// Limits on one document, so one bad record cannot exhaust memory.
const (
	MaxIDBytes   = 512
	MaxTextBytes = 1 << 20 // 1 MiB of text per document
)

// Validate checks a document as given on input: id and text present and
// valid UTF-8 within limits, a known tier when given, a readable time and
// published date, and a finite vector. It does not know the store's
// dimension; the ingest checks that.
func (d *Doc) Validate() error {
	switch {
	case d.ID == "":
		return errors.New(`missing "id"`)
	case len(d.ID) > MaxIDBytes:
		return fmt.Errorf(`"id" is %d bytes, more than %d`, len(d.ID), MaxIDBytes)
	case d.Text == "":
		return errors.New(`missing "text"`)
	case len(d.Text) > MaxTextBytes:
		return fmt.Errorf(`"text" is %d bytes, more than %d`, len(d.Text), MaxTextBytes)
	}
	for name, v := range map[string]string{"id": d.ID, "text": d.Text, "type": d.Type, "patient": d.Patient,
		"title": d.Title, "source": d.Source, "evidence": d.Evidence, "lang": d.Lang} {
		if !utf8.ValidString(v) {
			return fmt.Errorf("%q is not valid UTF-8", name)
		}
	}
	for k, v := range d.Meta {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return fmt.Errorf("meta %q is not valid UTF-8", k)
		}
	}
	if d.Tier != TierNone && !d.Tier.Valid() {
		return fmt.Errorf("unknown tier %d", d.Tier)
	}
	if _, err := ParseDay(d.Time); err != nil {
		return fmt.Errorf(`"time": %w`, err)
	}
	if _, err := ParseDay(d.Published); err != nil {
		return fmt.Errorf(`"published": %w`, err)
	}
	for i, f := range d.Vector {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return fmt.Errorf(`"vector"[%d] is not a finite number`, i)
		}
	}
	return nil
}
