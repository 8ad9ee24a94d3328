package graph

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/medkb/medkb/internal/base"
)

// tcmCode matches relation codes of the form X2Y (DIS2SYN, SYN2FOR): X
// abbreviates the head's type and Y the tail's.
var tcmCode = regexp.MustCompile(`^([A-Za-z]+)2([A-Za-z]+)$`)

// tcmTriple parses one line in the TCM shape: exactly two typed keys, each
// naming an entity by its type, plus "Relation". The relation code keeps
// its spelling (DIS2SYN, HAS_HERB). When the code reads X2Y, the head is
// the key whose type starts with X (ignoring case) if exactly one does,
// else the key whose type does not start with Y if exactly one does not;
// otherwise the head is the key written first. So
// {"Disease": "感冒", "Syndrome": "风寒感冒证", "Relation": "DIS2SYN"} is
// Disease 感冒 -DIS2SYN-> Syndrome 风寒感冒证, whatever the key order.
func tcmTriple(line []byte) (base.Triple, string) {
	keys, vals, msg := orderedStrings(line)
	if msg != "" {
		return base.Triple{}, msg
	}
	var rel string
	var types, names []string
	for i, k := range keys {
		if k == "Relation" {
			rel = strings.TrimSpace(vals[i])
			continue
		}
		types = append(types, strings.TrimSpace(k))
		names = append(names, strings.TrimSpace(vals[i]))
	}
	if rel == "" || len(types) != 2 {
		return base.Triple{}, `want two typed keys and "Relation"`
	}
	if m := tcmCode.FindStringSubmatch(rel); m != nil {
		x0, x1 := hasFold(types[0], m[1]), hasFold(types[1], m[1])
		y0, y1 := hasFold(types[0], m[2]), hasFold(types[1], m[2])
		if (x1 && !x0) || (x0 == x1 && y0 && !y1) {
			types[0], types[1] = types[1], types[0]
			names[0], names[1] = names[1], names[0]
		}
	}
	t := base.Triple{Head: names[0], HeadType: types[0], Relation: rel, Tail: names[1], TailType: types[1]}
	if msg := checkTriple(t); msg != "" {
		return t, msg
	}
	return t, ""
}

// hasFold reports whether s starts with prefix, ignoring case.
func hasFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// orderedStrings decodes a flat JSON object of string values keeping the
// order of its keys.
func orderedStrings(line []byte) (keys, vals []string, msg string) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, "want a JSON object"
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, nil, "bad JSON: " + jsonMessage(err)
		}
		vt, err := dec.Token()
		if err != nil {
			return nil, nil, "bad JSON: " + jsonMessage(err)
		}
		v, ok := vt.(string)
		if !ok {
			return nil, nil, fmt.Sprintf("value of %q is not a string", kt)
		}
		keys = append(keys, kt.(string))
		vals = append(vals, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, "bad JSON: " + jsonMessage(err)
	}
	if dec.More() {
		return nil, nil, "bad JSON: text after the object"
	}
	return keys, vals, ""
}
