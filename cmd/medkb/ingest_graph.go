package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/internal/base"
)

// input is one file to ingest and what it holds; err is why it cannot be
// read, for the ingest to report as a rejection in its turn.
type input struct {
	path string
	name string // what messages call it ("stdin" for `ingest -`); path when empty
	kind graph.Kind
	err  error
}

func (in input) label() string {
	if in.name != "" {
		return in.name
	}
	return in.path
}

// classifyInputs expands directories and detects each file's kind. A file
// named on the command line is always an input; one found in a directory
// only when it is a .jsonl or .tsv file holding data (see ingestCmd),
// the others being noted on stderr. Hetionet edge files sort after every
// other file, so that their node ids resolve.
func (e *env) classifyInputs(args []string) ([]input, error) {
	var out []input
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, detect(a))
			continue
		}
		var other []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir():
				return nil
			case !isDataName(p):
				other = append(other, p)
				return nil
			}
			k, err := graph.Detect(p)
			switch {
			case errors.Is(err, graph.ErrUnknownFormat):
				fmt.Fprintf(e.stderr, "medkb: skipping %s: not a format medkb ingests (%v)\n", p, err)
			case k == graph.KindHetionetMeta:
				fmt.Fprintf(e.stderr, "medkb: skipping %s: Hetionet metadata (the graph's schema), not data\n", p)
			default:
				out = append(out, input{path: p, kind: k, err: err})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(other) > 0 {
			fmt.Fprintf(e.stderr, "medkb: skipping %d file(s) in %s that are not .jsonl or .tsv: %s\n", len(other), a, listSome(other, 5))
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return out[i].kind != graph.KindHetionetEdges && out[j].kind == graph.KindHetionetEdges
	})
	return out, nil
}

// detect classifies a file named on the command line; one of unknown
// format is read as documents, whose reader names its bad lines.
func detect(path string) input {
	k, err := graph.Detect(path)
	if errors.Is(err, graph.ErrUnknownFormat) {
		k, err = graph.KindDocuments, nil
	}
	return input{path: path, kind: k, err: err}
}

func isDataName(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".jsonl" || ext == ".tsv"
}

// listSome lists up to n names, and how many more there are.
func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// graph ingests one graph file: read whole first, so that a file with a
// bad line is rejected before anything is written (unless --skip-bad),
// then read again and written in batches.
func (r *ingestRun) graph(in input) error {
	start := time.Now()
	if in.kind == graph.KindHetionetEdges && r.ids == nil {
		ids, err := r.hetionetIDs(in)
		if err != nil {
			return err
		}
		r.ids = ids
	}
	n := 0
	count := func() error { n++; return nil }
	err := r.readGraph(in, func(base.Entity) error { return count() }, func(base.Triple) error { return count() })
	var bad *graph.InputError
	switch {
	case errors.As(err, &bad) && r.skipBad:
		fmt.Fprintf(r.stderr, "medkb: skipping %v\n", err)
	case errors.As(err, &bad):
		return reject("%s rejected, nothing ingested: %w", in.label(), err)
	case err != nil:
		return &rejectedError{err}
	}
	var ents []medkb.Entity
	var triples []medkb.Triple
	var total medkb.GraphChange
	flush := func() error {
		if len(ents)+len(triples) == 0 {
			return nil
		}
		gc, err := r.db.IngestGraph(r.cmd.Context(), ents, triples)
		r.wroteGraph = true
		if err != nil {
			if total.Entities+total.Triples == 0 {
				return fmt.Errorf("%s: %w; nothing of it was written", in.label(), err)
			}
			return fmt.Errorf("%s: %w; %d new entities and %d new triples of it were written and stay committed "+
				"(running the ingest again finishes the file)", in.label(), err, total.Entities, total.Triples)
		}
		if len(ents) > 0 {
			r.ids = nil // new names for Hetionet ids, maybe
		}
		total.Entities += gc.Entities
		total.Triples += gc.Triples
		ents, triples = ents[:0], triples[:0]
		return nil
	}
	full := func() error {
		if len(ents)+len(triples) >= graphBatchSize {
			return flush()
		}
		return nil
	}
	err = r.readGraph(in,
		func(x base.Entity) error { ents = append(ents, medkb.Entity(x)); return full() },
		func(t base.Triple) error { triples = append(triples, medkb.Triple(t)); return full() })
	if errors.As(err, &bad) {
		err = nil // the lines skipped and reported above
	}
	if err == nil {
		err = flush()
	}
	if err != nil {
		return err
	}
	st, err := r.db.Stats()
	if err != nil {
		return err
	}
	skipped := 0
	if bad != nil {
		skipped = bad.Bad
	}
	fmt.Fprintf(r.stdout, "%s: %d new entities, %d new triples (%d record(s) read, %d bad line(s) skipped) in %s; store has %d entities, %d triples\n",
		in.label(), total.Entities, total.Triples, n, skipped, time.Since(start).Round(time.Millisecond), st.Entities, st.Triples)
	return nil
}

// readGraph reads one graph file, calling addEnt or addTriple for each
// good record; Hetionet edges resolve their ids through r.ids.
func (r *ingestRun) readGraph(in input, addEnt func(base.Entity) error, addTriple func(base.Triple) error) error {
	f, err := os.Open(in.path)
	if err != nil {
		return err
	}
	defer f.Close()
	switch in.kind {
	case graph.KindTriples, graph.KindTCMRelations:
		return graph.ReadTriples(f, in.label(), addTriple)
	case graph.KindEntities:
		return graph.ReadEntities(f, in.label(), addEnt)
	case graph.KindHetionetNodes:
		return graph.ReadHetionetNodes(f, in.label(), addEnt)
	case graph.KindHetionetEdges:
		return graph.ReadHetionetEdges(f, in.label(), r.ids, addTriple)
	}
	return fmt.Errorf("%s: cannot ingest %s", in.label(), in.kind)
}
