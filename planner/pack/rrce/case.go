package rrce

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/text"
)

// ErrCase is returned (wrapped, with file:line) when a case file holds a
// line that is not a valid case.
var ErrCase = errors.New("medkb: bad benchmark case")

// Case is one benchmark vignette: a query and its signal segments (noise
// is added by the benchmark, not stored).
type Case struct {
	ID    string `json:"id"`
	Query string `json:"query"`
	// Now is the reference date for time decay (YYYY-MM-DD); "" means no
	// decay for this case.
	Now      string    `json:"now,omitempty"`
	Segments []Segment `json:"segments"`
}

// Segment is one block of a case.
type Segment struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	// Type is the EMR component type, e.g. "lab"; "" lets the text rules decide.
	Type string `json:"type,omitempty"`
	// Tier is the gold tier, when known: it decides which segments count
	// for RRCE, and with Options.GoldTiers also the tier packed.
	Tier base.Tier `json:"tier,omitempty"`
	Time string    `json:"time,omitempty"`
	// Signal marks evidence the case needs; noise has Signal false.
	Signal bool `json:"signal"`
	// Keys are the entities that must survive packing. Absent (or null)
	// means clinical.Keys(Text); an empty list means the segment has none
	// and survives whenever it is packed.
	Keys []string `json:"keys"`
}

// ReadCases reads JSON Lines cases from r; name prefixes error positions
// ("cases.jsonl:3: ..."). Blank lines are skipped.
func ReadCases(r io.Reader, name string) ([]Case, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var cases []Case
	seen := map[string]int{}
	for line := 1; sc.Scan(); line++ {
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		var c Case
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s:%d: %w: %w", name, line, ErrCase, err)
		}
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if prev, dup := seen[c.ID]; dup {
			return nil, fmt.Errorf("%s:%d: %w: id %q already used on line %d", name, line, ErrCase, c.ID, prev)
		}
		seen[c.ID] = line
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return cases, nil
}

// ReadCasesFile reads a JSON Lines case file.
func ReadCasesFile(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadCases(f, path)
}

// WithRecordInQuery returns copies of the cases whose query starts with
// the texts of their segments, in order, as a MedQA question carries its
// vignette: the style of query under which the similarity can find a
// case's own segments. Every segment of the case goes in, signal or not,
// so the gold labels do not leak into the query (noise is added later).
// The input is not modified.
func WithRecordInQuery(cases []Case) []Case {
	out := make([]Case, len(cases))
	for i, c := range cases {
		var sb strings.Builder
		sep := " "
		if text.Lang(c.Query) == "zh" {
			sep = ""
		}
		for _, s := range c.Segments {
			sb.WriteString(s.Text)
			sb.WriteString(sep)
		}
		sb.WriteString(c.Query)
		c.Query = sb.String()
		out[i] = c
	}
	return out
}

func (c *Case) check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrCase, fmt.Sprintf(format, args...))
	}
	switch {
	case c.ID == "":
		return bad("missing id")
	case c.Query == "":
		return bad("case %q: missing query", c.ID)
	case len(c.Segments) == 0:
		return bad("case %q: no segments", c.ID)
	}
	if _, err := base.ParseDay(c.Now); err != nil {
		return bad("case %q: now: %v", c.ID, err)
	}
	for i, s := range c.Segments {
		switch {
		case s.ID == "":
			return bad("case %q: segment %d: missing id", c.ID, i)
		case strings.TrimSpace(s.Text) == "":
			return bad("case %q: segment %q: empty text", c.ID, s.ID)
		}
		if _, err := base.ParseDay(s.Time); err != nil {
			return bad("case %q: segment %q: time: %v", c.ID, s.ID, err)
		}
	}
	return nil
}
