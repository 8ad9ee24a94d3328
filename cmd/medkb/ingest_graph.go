package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/internal/base"
)

// input is one file to ingest and what it holds.
type input struct {
	path string
	kind graph.Kind
}

// classifyInputs expands directories and detects each file's kind; graph
// node files sort before edge files so edges can resolve node ids.
func classifyInputs(args []string) ([]input, error) {
	var paths []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			paths = append(paths, a)
			continue
		}
		err = filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".tsv") || strings.HasSuffix(p, ".jsonl")) {
				paths = append(paths, p)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	var out []input
	for _, p := range paths {
		k, err := graph.Detect(p)
		if errors.Is(err, graph.ErrUnknownFormat) {
			k, err = graph.KindDocuments, nil // id<TAB>text, or bad lines the document reader names
		}
		if err != nil {
			return nil, err
		}
		out = append(out, input{path: p, kind: k})
	}
	sort.SliceStable(out, func(i, j int) bool {
		return (out[i].kind == graph.KindHetionetNodes) && (out[j].kind == graph.KindHetionetEdges)
	})
	return out, nil
}

// graphInput gathers the graph files of one run for one atomic write.
type graphInput struct {
	ents    []base.Entity
	triples []base.Triple
	ids     map[string]string // Hetionet id -> name, once needed
	files   int
	bad     int
}

func (e *env) readGraphFile(db *medkb.DB, gi *graphInput, in input, skipBad bool) error {
	f, err := os.Open(in.path)
	if err != nil {
		return err
	}
	defer f.Close()
	addEnt := func(x base.Entity) error { gi.ents = append(gi.ents, x); return nil }
	addTriple := func(t base.Triple) error { gi.triples = append(gi.triples, t); return nil }
	switch in.kind {
	case graph.KindTriples, graph.KindTCMRelations:
		err = graph.ReadTriples(f, in.path, addTriple)
	case graph.KindEntities:
		err = graph.ReadEntities(f, in.path, addEnt)
	case graph.KindHetionetNodes:
		gi.ids = nil // new nodes: rebuild the id map when edges come
		err = graph.ReadHetionetNodes(f, in.path, addEnt)
	case graph.KindHetionetEdges:
		if gi.ids == nil {
			stored, serr := db.Entities()
			if serr != nil {
				return serr
			}
			gi.ids = graph.HetionetIDs(append(stored, gi.ents...))
		}
		err = graph.ReadHetionetEdges(f, in.path, gi.ids, addTriple)
	default:
		return fmt.Errorf("%s: cannot ingest %s", in.path, in.kind)
	}
	var bad *graph.InputError
	if errors.As(err, &bad) {
		if !skipBad {
			return fmt.Errorf("%s rejected, no graph input ingested: %w", in.path, err)
		}
		gi.bad += bad.Bad
		fmt.Fprintf(e.stderr, "medkb: skipping %v\n", err)
		err = nil
	}
	gi.files++
	return err
}

func (e *env) commitGraph(cmd *cobra.Command, db *medkb.DB, gi *graphInput) error {
	if gi.files == 0 {
		return nil
	}
	start := time.Now()
	gc, err := db.IngestGraph(cmd.Context(), gi.ents, gi.triples)
	if err != nil {
		return err
	}
	st, err := db.Stats()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "graph: %d file(s), %d new entities, %d new triples (%d read, %d bad lines skipped) in %s; store has %d entities, %d triples\n",
		gi.files, gc.Entities, gc.Triples, len(gi.triples), gi.bad, time.Since(start).Round(time.Millisecond), st.Entities, st.Triples)
	return nil
}
