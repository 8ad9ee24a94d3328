package graph

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/medkb/medkb/internal/base"
)

// ReadEntities reads JSON Lines {"name","type","aliases"?:[...]} from r and
// calls fn for each good entity; name labels the input in errors. Names,
// types and aliases are trimmed; the type must satisfy IsName, the name
// and every alias must be non-empty. Bad lines are reported as by
// ReadTriples.
func ReadEntities(r io.Reader, name string, fn func(base.Entity) error) error {
	lr := newLineReader(r, name)
	for lr.scan() {
		e, msg := parseEntity(lr.line)
		if msg != "" {
			lr.reject("%s", msg)
			continue
		}
		if err := fn(e); err != nil {
			return lr.errorf("%w", err)
		}
	}
	return lr.result()
}

func parseEntity(line []byte) (base.Entity, string) {
	var e base.Entity
	if err := json.Unmarshal(line, &e); err != nil {
		return e, "bad JSON: " + jsonMessage(err)
	}
	e.Name = strings.TrimSpace(e.Name)
	e.Type = strings.TrimSpace(e.Type)
	for i, a := range e.Aliases {
		e.Aliases[i] = strings.TrimSpace(a)
	}
	return e, checkEntity(e)
}

// checkEntity validates an entity; it returns a message for the caller's
// line error, or "" when the entity is good.
func checkEntity(e base.Entity) string {
	if msg := checkName(`"name"`, e.Name); msg != "" {
		return msg
	}
	if msg := checkType("type", e.Type); msg != "" {
		return msg
	}
	if len(e.Aliases) > MaxAliases {
		return fmt.Sprintf("%d aliases, more than %d", len(e.Aliases), MaxAliases)
	}
	for i, a := range e.Aliases {
		if a == "" {
			return fmt.Sprintf("alias %d is empty", i+1)
		}
		if msg := checkText(fmt.Sprintf("alias %d", i+1), a, MaxNameBytes); msg != "" {
			return msg
		}
	}
	return ""
}
