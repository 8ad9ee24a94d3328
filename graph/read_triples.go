package graph

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/medkb/medkb/internal/base"
)

// ReadTriples reads typed triples from r and calls fn for each good one.
// name labels the input in errors (usually the file path).
//
// The format is decided once per file from its first non-blank line:
//   - JSON Lines in the triple shape {"head","head_type","relation","tail",
//     "tail_type","source"?,"weight"?} (keys in any case; unknown keys are
//     ignored);
//   - JSON Lines in the TCM shape {"Disease": "感冒", "Syndrome": "风寒感冒证",
//     "Relation": "DIS2SYN"} (see tcmTriple for the direction rule);
//   - otherwise TSV with the columns head, head_type, relation, tail,
//     tail_type and optionally source and weight, in that order, or in any
//     order when the first row is a header naming them.
//
// Names and types are trimmed of surrounding space; types and relations
// must satisfy IsName. Malformed lines are skipped and reported together
// in an *InputError (wrapping ErrBadInput) after the whole input has been
// read; fn has by then been called for every good line, so a caller that
// rejects files with bad lines should buffer what fn receives. An error
// returned by fn stops reading and is returned wrapped, with file:line.
func ReadTriples(r io.Reader, name string, fn func(base.Triple) error) error {
	lr := newLineReader(r, name)
	var parse func(line []byte) (base.Triple, string)
	for lr.scan() {
		if parse == nil {
			var skip bool
			parse, skip = tripleParser(lr.line)
			if skip {
				continue
			}
		}
		t, msg := parse(lr.line)
		if msg != "" {
			lr.reject("%s", msg)
			continue
		}
		if err := fn(t); err != nil {
			return lr.errorf("%w", err)
		}
	}
	return lr.result()
}

// tripleParser chooses the line parser for a file from its first line;
// skip is true when that line is a TSV header.
func tripleParser(first []byte) (parse func([]byte) (base.Triple, string), skip bool) {
	if bytes.HasPrefix(bytes.TrimSpace(first), []byte("{")) {
		var keys map[string]json.RawMessage
		if json.Unmarshal(first, &keys) == nil && isTCMShape(keys) {
			return tcmTriple, false
		}
		return jsonTriple, false
	}
	if cols, ok := tsvHeader(first); ok {
		return cols.parse, true
	}
	return defaultColumns().parse, false
}

// isTCMShape reports whether a first line's keys are the TCM shape's: a
// "Relation" and no key of the triple shape, which JSON matches in any
// case ({"Head": ..., "Relation": ...} is the triple shape).
func isTCMShape(keys map[string]json.RawMessage) bool {
	if _, ok := keys["Relation"]; !ok {
		return false
	}
	for k := range keys {
		switch strings.ToLower(k) {
		case "relation", "head", "tail", "head_type", "tail_type":
			if k != "Relation" {
				return false
			}
		}
	}
	return true
}

// jsonTriple parses one line in the triple shape.
func jsonTriple(line []byte) (base.Triple, string) {
	var t base.Triple
	if err := json.Unmarshal(line, &t); err != nil {
		return t, "bad JSON: " + jsonMessage(err)
	}
	t = trimTriple(t)
	if msg := checkTriple(t); msg != "" {
		return t, msg
	}
	if msg := checkWeight(t.Weight); msg != "" {
		return t, msg
	}
	return t, ""
}

func trimTriple(t base.Triple) base.Triple {
	t.Head = strings.TrimSpace(t.Head)
	t.HeadType = strings.TrimSpace(t.HeadType)
	t.Relation = strings.TrimSpace(t.Relation)
	t.Tail = strings.TrimSpace(t.Tail)
	t.TailType = strings.TrimSpace(t.TailType)
	t.Source = strings.TrimSpace(t.Source)
	return t
}

func checkWeight(w float64) string {
	if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
		return fmt.Sprintf("weight %v is not a finite number >= 0", w)
	}
	return ""
}

// jsonMessage shortens encoding/json errors to their reason.
func jsonMessage(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

// tsvColumns maps the triple fields to TSV column positions (-1: absent).
type tsvColumns struct {
	head, headType, relation, tail, tailType, source, weight int
}

func defaultColumns() tsvColumns { return tsvColumns{0, 1, 2, 3, 4, 5, 6} }

// tsvHeader recognises a header row: one naming (in any case and order)
// the five required columns.
func tsvHeader(line []byte) (tsvColumns, bool) {
	pos := map[string]int{}
	for i, f := range strings.Split(string(line), "\t") {
		pos[strings.ToLower(strings.TrimSpace(f))] = i
	}
	for _, required := range []string{"head", "head_type", "relation", "tail", "tail_type"} {
		if _, ok := pos[required]; !ok {
			return tsvColumns{}, false
		}
	}
	col := func(name string) int {
		if i, ok := pos[name]; ok {
			return i
		}
		return -1
	}
	return tsvColumns{col("head"), col("head_type"), col("relation"), col("tail"), col("tail_type"), col("source"), col("weight")}, true
}

// parse reads one TSV row.
func (c tsvColumns) parse(line []byte) (base.Triple, string) {
	f := strings.Split(string(line), "\t")
	get := func(i int) string {
		if i < 0 || i >= len(f) {
			return ""
		}
		return strings.TrimSpace(f[i])
	}
	if need := max(c.head, c.headType, c.relation, c.tail, c.tailType) + 1; len(f) < need {
		return base.Triple{}, fmt.Sprintf("%d tab-separated fields, want at least %d (head, head_type, relation, tail, tail_type)", len(f), need)
	}
	t := base.Triple{
		Head: get(c.head), HeadType: get(c.headType), Relation: get(c.relation),
		Tail: get(c.tail), TailType: get(c.tailType), Source: get(c.source),
	}
	if msg := checkTriple(t); msg != "" {
		return t, msg
	}
	if w := get(c.weight); w != "" {
		v, err := strconv.ParseFloat(w, 64)
		if err != nil {
			return t, fmt.Sprintf("weight %q is not a number", w)
		}
		if msg := checkWeight(v); msg != "" {
			return t, msg
		}
		t.Weight = v
	}
	return t, ""
}
