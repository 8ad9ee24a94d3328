package graph

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Kind is what an input file holds, as far as `medkb ingest` routing is
// concerned.
type Kind int

// The kinds of input file.
const (
	KindUnknown       Kind = iota
	KindDocuments          // JSON Lines with "id" and "text" (read by the ingest path, not here)
	KindTriples            // triples as JSON Lines or TSV: ReadTriples
	KindEntities           // JSON Lines {"name","type","aliases"?}: ReadEntities
	KindTCMRelations       // JSON Lines {"Disease": ..., "Syndrome": ..., "Relation": ...}: ReadTriples
	KindHetionetNodes      // Hetionet node TSV (id name kind, or neo4j-import :ID): ReadHetionetNodes
	KindHetionetEdges      // neo4j-import edge TSV (:START_ID(..) :END_ID(..)): ReadHetionetEdges
	KindHetionetMeta       // Hetionet's metanodes.tsv and metaedges.tsv: a description of the schema, not data
)

func (k Kind) String() string {
	switch k {
	case KindDocuments:
		return "documents"
	case KindTriples:
		return "triples"
	case KindEntities:
		return "entities"
	case KindTCMRelations:
		return "tcm-relations"
	case KindHetionetNodes:
		return "hetionet-nodes"
	case KindHetionetEdges:
		return "hetionet-edges"
	case KindHetionetMeta:
		return "hetionet-metadata"
	}
	return "unknown"
}

// Detect opens path and classifies it by its first non-blank line. It
// returns an error wrapping ErrUnknownFormat when no kind fits.
func Detect(path string) (Kind, error) {
	f, err := os.Open(path)
	if err != nil {
		return KindUnknown, fmt.Errorf("detect: %w", err)
	}
	defer f.Close()
	return DetectReader(f, path)
}

// DetectReader classifies the input r (labelled name in errors) by its
// first non-blank line:
//
//	JSON with "id" and "text"                     documents
//	JSON with "head", "relation" and "tail"       triples
//	JSON with "name" and "type"                   entities
//	JSON with "Relation" and two other keys       TCM relations
//	TSV header "id name kind" or "...:ID(Kind)"   Hetionet nodes
//	TSV header ":START_ID(Kind) :END_ID(Kind)"    Hetionet edges
//	TSV header with a metaedge or metanode column Hetionet metadata
//	TSV header naming head ... tail_type          triples
//	TSV with two columns                          documents (id, text)
//	TSV with five to seven columns                triples (no header)
func DetectReader(r io.Reader, name string) (Kind, error) {
	lr := newLineReader(r, name)
	if !lr.scan() {
		if lr.err != nil {
			return KindUnknown, lr.err
		}
		return KindUnknown, fmt.Errorf("%s: no data: %w", name, ErrUnknownFormat)
	}
	if k := classify(string(lr.line)); k != KindUnknown {
		return k, nil
	}
	return KindUnknown, lr.errorf("%w", ErrUnknownFormat)
}

func classify(line string) Kind {
	if strings.HasPrefix(strings.TrimSpace(line), "{") {
		var keys map[string]json.RawMessage
		if json.Unmarshal([]byte(line), &keys) != nil {
			return KindUnknown
		}
		lower := make(map[string]bool, len(keys))
		for k := range keys {
			lower[strings.ToLower(k)] = true // JSON matches field names in any case
		}
		switch {
		case lower["id"] && lower["text"]:
			return KindDocuments
		case lower["head"] && lower["relation"] && lower["tail"]:
			return KindTriples
		case lower["name"] && lower["type"]:
			return KindEntities
		case isTCMShape(keys) && len(keys) == 3:
			return KindTCMRelations
		}
		return KindUnknown
	}
	f := strings.Split(line, "\t")
	if _, ok := hetionetNodeHeader(f); ok {
		return KindHetionetNodes
	}
	if _, _, ok := hetionetEdgeHeader(f); ok {
		return KindHetionetEdges
	}
	for _, col := range f {
		if c := strings.ToLower(strings.TrimSpace(col)); c == "metaedge" || c == "metanode" {
			return KindHetionetMeta
		}
	}
	if _, ok := tsvHeader([]byte(line)); ok {
		return KindTriples
	}
	switch {
	case len(f) == 2:
		return KindDocuments
	case len(f) >= 5 && len(f) <= 7:
		return KindTriples
	}
	return KindUnknown
}
