package packbench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"slices"
	"strconv"
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
	// Question, Options and Answer make the case a multiple-choice
	// question for the answer-accuracy harness (Suite.Prompts): the
	// question asked after the packed record (the record left out), the
	// options by letter, and the correct letter. All three or none.
	Question string            `json:"question,omitempty"`
	Options  map[string]string `json:"options,omitempty"`
	Answer   string            `json:"answer,omitempty"`
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
	// Signal marks evidence the case needs; noise has Signal false. In
	// a case none of whose segments has the field, every segment is
	// signal (ReadCases): a case without signal would count for nothing.
	Signal bool `json:"signal"`
	// Keys are the entities that must survive packing. Absent (or null)
	// means clinical.Keys(Text); an empty list means the segment has none
	// and survives whenever it is packed.
	Keys []string `json:"keys"`
	// copyOf is the id of the signal segment this one copies
	// (AddDuplicates), "" for an original.
	copyOf string
}

// ReadCases reads JSON Lines cases from r; name prefixes the positions in
// errors and warnings ("cases.jsonl:3: ..."). Blank lines are skipped.
//
// A line that is not a valid case is an error. What reads but is likely a
// mistake comes back as warnings: a field the format does not know
// (ignored, so that a file carrying extra metadata still runs, but a
// misspelt "signal" would otherwise pass unseen), a key that its signal
// segment's text does not hold (after text.FoldKey: that segment can never
// survive), cases that mark no segment "signal" (all their segments are
// then signal, since noise is the benchmark's to add), and a file in
// which no segment is a signal (RRCE then counts nothing).
func ReadCases(r io.Reader, name string) (cases []Case, warnings []string, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	seen := map[string]int{}
	unknown := map[string]bool{}
	signal := false
	unmarked, firstUnmarked := 0, 0
	for line := 1; sc.Scan(); line++ {
		raw := jsonLine(sc.Bytes(), line)
		if len(raw) == 0 {
			continue
		}
		c, fields, marked, err := decodeCase(raw)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %s:%d: %w", ErrCase, name, line, err)
		}
		nameSegments(&c)
		for _, field := range fields {
			if !unknown[field] {
				unknown[field] = true
				warnings = append(warnings, fmt.Sprintf("%s:%d: unknown field %s ignored", name, line, field))
			}
		}
		if err := c.check(); err != nil {
			return nil, nil, fmt.Errorf("%w: %s:%d: %w", ErrCase, name, line, err)
		}
		if prev, dup := seen[c.ID]; dup {
			return nil, nil, fmt.Errorf("%w: %s:%d: id %q already used on line %d", ErrCase, name, line, c.ID, prev)
		}
		seen[c.ID] = line
		if !marked {
			for i := range c.Segments {
				c.Segments[i].Signal = true
			}
			if unmarked++; unmarked == 1 {
				firstUnmarked = line
			}
		}
		for _, s := range c.Segments {
			if !s.Signal {
				continue
			}
			signal = true
			folded := text.FoldKey(s.Text)
			for _, k := range s.Keys {
				if !strings.Contains(folded, text.FoldKey(k)) {
					warnings = append(warnings, fmt.Sprintf("%s:%d: case %q: segment %q: key %q is not in its text; the segment can never survive", name, line, c.ID, s.ID, k))
				}
			}
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if unmarked > 0 {
		warnings = append(warnings, fmt.Sprintf(`%s:%d: %d case(s), the first here, mark no segment "signal"; all their segments count as signal`, name, firstUnmarked, unmarked))
	}
	if len(cases) > 0 && !signal {
		warnings = append(warnings, fmt.Sprintf(`%s: no segment has "signal": true; RRCE has nothing to count`, name))
	}
	return cases, warnings, nil
}

// decodeCase decodes one line and names the fields, of the case or of a
// segment, that the format does not know (quoted; a segment's as
// "segments[].name"). Those are not an error: the case is decoded without
// them. marked reports whether any segment has a "signal" field.
func decodeCase(raw []byte) (c Case, unknown []string, marked bool, err error) {
	if err := json.Unmarshal(raw, &c); err != nil {
		return Case{}, nil, false, err
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return c, nil, true, nil
	}
	unknown = unknownNames(fields, caseFields, "")
	for name, raw := range fields {
		var segs []map[string]json.RawMessage
		if !strings.EqualFold(name, "segments") || json.Unmarshal(raw, &segs) != nil {
			continue
		}
		for _, seg := range segs {
			unknown = append(unknown, unknownNames(seg, segmentFields, "segments[].")...)
			for name := range seg {
				marked = marked || strings.EqualFold(name, "signal")
			}
		}
	}
	return c, unknown, marked, nil
}

// The JSON names of Case and Segment; encoding/json matches them without
// regard to case, and so does unknownNames.
var (
	caseFields    = []string{"id", "query", "now", "segments", "question", "options", "answer"}
	segmentFields = []string{"id", "text", "type", "tier", "time", "signal", "keys"}
)

func unknownNames(fields map[string]json.RawMessage, known []string, prefix string) []string {
	var out []string
	for name := range fields {
		if !slices.ContainsFunc(known, func(k string) bool { return strings.EqualFold(k, name) }) {
			out = append(out, strconv.Quote(prefix+name))
		}
	}
	slices.Sort(out)
	return out
}

// ReadCasesFile reads a JSON Lines case file (see ReadCases).
func ReadCasesFile(path string) ([]Case, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
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

// UnmarshalJSON reads a case, taking an id or a date written as a whole
// number (7, 20250318) as its text, and naming the segment (by position,
// from 1) that a decoding error is in.
func (c *Case) UnmarshalJSON(b []byte) error {
	type plain Case
	aux := struct {
		*plain
		ID       json.RawMessage   `json:"id"`
		Now      json.RawMessage   `json:"now"`
		Segments []json.RawMessage `json:"segments"`
	}{plain: (*plain)(c)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return fieldError(err)
	}
	var err error
	if c.ID, err = scalarText(aux.ID, "id"); err != nil {
		return err
	}
	if c.Now, err = scalarText(aux.Now, "now"); err != nil {
		return err
	}
	c.Segments = make([]Segment, len(aux.Segments))
	for i, raw := range aux.Segments {
		if err := json.Unmarshal(raw, &c.Segments[i]); err != nil {
			return fmt.Errorf("segment %d: %w", i+1, err)
		}
	}
	return nil
}

// UnmarshalJSON reads a segment, forgiving the spellings a case file
// written elsewhere may use: an id or a time written as a whole number, a
// "signal" of "true", "false", 1 or 0, and a single key written as a
// string rather than a list. A missing id is given by ReadCases.
func (s *Segment) UnmarshalJSON(b []byte) error {
	type plain Segment
	aux := struct {
		*plain
		ID     json.RawMessage `json:"id"`
		Time   json.RawMessage `json:"time"`
		Signal json.RawMessage `json:"signal"`
		Keys   json.RawMessage `json:"keys"`
	}{plain: (*plain)(s)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return fieldError(err)
	}
	var err error
	if s.ID, err = scalarText(aux.ID, "id"); err != nil {
		return err
	}
	if s.Time, err = scalarText(aux.Time, "time"); err != nil {
		return err
	}
	if s.Signal, err = flexBool(aux.Signal); err != nil {
		return err
	}
	s.Keys, err = flexKeys(aux.Keys)
	return err
}

// fieldError words a JSON type mismatch by the field's own name and JSON
// kinds ("text: want a string, got number"), not the decoder's path
// through the types UnmarshalJSON uses nor Go's type names.
func fieldError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	field := te.Field
	if k := strings.LastIndexByte(field, '.'); k >= 0 {
		field = field[k+1:]
	}
	if field == "" {
		return fmt.Errorf("want %s, got %s", jsonKind(te.Type), te.Value)
	}
	return fmt.Errorf("%s: want %s, got %s", field, jsonKind(te.Type), te.Value)
}

// jsonKind names the JSON value that decodes into t.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKind(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map, reflect.Interface:
		return "an object"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a whole number"
}

// jsonLine is line number line of a JSON Lines file, without the white
// space around it or, on the first line, a UTF-8 byte-order mark (which
// editors on Windows write).
func jsonLine(raw []byte, line int) []byte {
	if line == 1 {
		raw = text.TrimBOM(raw)
	}
	return bytes.TrimSpace(raw)
}

// scalarText reads a JSON string, or a whole number as written; absent or
// null is "".
func scalarText(raw json.RawMessage, field string) (string, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return "", nil
	case raw[0] == '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	if _, err := strconv.ParseUint(string(raw), 10, 64); err != nil {
		return "", fmt.Errorf("%s: want a string or a whole number, got %s", field, raw)
	}
	return string(raw), nil
}

// flexBool reads "signal": a JSON boolean, the string "true" or "false",
// 1 or 0; absent or null is false.
func flexBool(raw json.RawMessage) (bool, error) {
	switch string(bytes.TrimSpace(raw)) {
	case "", "null", "false", `"false"`, "0":
		return false, nil
	case "true", `"true"`, "1":
		return true, nil
	}
	return false, fmt.Errorf("signal: want true or false, got %s", raw)
}

// flexKeys reads "keys" as a list of strings or one non-empty string;
// absent or null is nil (medkb finds the keys), and [] is an empty list
// (none).
func flexKeys(raw json.RawMessage) ([]string, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return nil, nil
	case raw[0] == '"':
		var k string
		if err := json.Unmarshal(raw, &k); err != nil || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("keys: want a list of strings or one key, got %s", raw)
		}
		return []string{k}, nil
	}
	keys := []string{}
	if err := json.Unmarshal(raw, &keys); err != nil {
		return nil, fmt.Errorf("keys: want a list of strings, got %s", raw)
	}
	return keys, nil
}

// nameSegments gives each segment without an id "case/n", n its position
// from 1, or the next free number when a segment already has that id.
func nameSegments(c *Case) {
	taken := map[string]bool{}
	for _, s := range c.Segments {
		taken[s.ID] = true
	}
	next := 1
	for i := range c.Segments {
		if c.Segments[i].ID != "" {
			continue
		}
		next = max(next, i+1)
		for taken[fmt.Sprintf("%s/%d", c.ID, next)] {
			next++
		}
		c.Segments[i].ID = fmt.Sprintf("%s/%d", c.ID, next)
		taken[c.Segments[i].ID] = true
	}
}

// check reports what makes c invalid; ReadCases wraps it in ErrCase.
func (c *Case) check() error {
	switch {
	case c.ID == "":
		return errors.New("missing id")
	case c.Query == "":
		return fmt.Errorf("case %q: missing query", c.ID)
	case len(c.Segments) == 0:
		return fmt.Errorf("case %q: no segments", c.ID)
	}
	if _, err := base.ParseDay(c.Now); err != nil {
		return fmt.Errorf("case %q: now: %v", c.ID, err)
	}
	if err := c.checkQuestion(); err != nil {
		return fmt.Errorf("case %q: %v", c.ID, err)
	}
	seen := map[string]bool{}
	for _, s := range c.Segments {
		if seen[s.ID] {
			return fmt.Errorf("case %q: segment id %q used twice", c.ID, s.ID)
		}
		seen[s.ID] = true
		if strings.TrimSpace(s.Text) == "" {
			return fmt.Errorf("case %q: segment %q: empty text", c.ID, s.ID)
		}
		if _, err := base.ParseDay(s.Time); err != nil {
			return fmt.Errorf("case %q: segment %q: time: %v", c.ID, s.ID, err)
		}
	}
	return nil
}

// checkQuestion reports what makes the case's question unusable: part of
// it missing, fewer than two options, a label that is not one capital
// letter, or an answer that is not one of the labels.
func (c *Case) checkQuestion() error {
	if c.Question == "" && len(c.Options) == 0 && c.Answer == "" {
		return nil
	}
	switch {
	case strings.TrimSpace(c.Question) == "":
		return errors.New(`"options" or "answer" without a "question"`)
	case len(c.Options) < 2:
		return fmt.Errorf(`"question" needs "options", at least two, by letter: {"A": "...", "B": "..."}`)
	}
	for _, l := range slices.Sorted(maps.Keys(c.Options)) {
		o := c.Options[l]
		if len(l) != 1 || l[0] < 'A' || l[0] > 'Z' {
			return fmt.Errorf("option %q: an option's label is one capital letter", l)
		}
		if strings.TrimSpace(o) == "" {
			return fmt.Errorf("option %s is empty", l)
		}
	}
	if _, ok := c.Options[c.Answer]; !ok {
		return fmt.Errorf("answer %q is not one of the options' letters", c.Answer)
	}
	return nil
}
