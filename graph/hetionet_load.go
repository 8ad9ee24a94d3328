package graph

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/medkb/medkb/internal/base"
)

// LoadHetionet reads every Hetionet node file and edge file under dir
// (searched recursively; *.tsv files classified by Detect, others and
// other kinds ignored), node files first so that edge ids resolve. A node
// given by several files (the full node list and a subset) comes back
// several times; Build merges them. Any malformed line fails the load.
func LoadHetionet(dir string) ([]base.Entity, []base.Triple, error) {
	var nodeFiles, edgeFiles []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".tsv") {
			return nil
		}
		kind, err := Detect(path)
		switch {
		case err != nil:
			return nil // not a graph file
		case kind == KindHetionetNodes:
			nodeFiles = append(nodeFiles, path)
		case kind == KindHetionetEdges:
			edgeFiles = append(edgeFiles, path)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("load hetionet: %w", err)
	}
	if len(nodeFiles) == 0 || len(edgeFiles) == 0 {
		return nil, nil, fmt.Errorf("load hetionet: %s holds %d node and %d edge files, want both: %w", dir, len(nodeFiles), len(edgeFiles), ErrUnknownFormat)
	}
	var ents []base.Entity
	for _, path := range nodeFiles {
		err := readFile(path, func(f *os.File) error {
			return ReadHetionetNodes(f, path, func(e base.Entity) error { ents = append(ents, e); return nil })
		})
		if err != nil {
			return nil, nil, fmt.Errorf("load hetionet: %w", err)
		}
	}
	ids := HetionetIDs(ents)
	// Sizing the slice up front saves copying a hundred megabytes of
	// triples as it grows.
	capacity := 0
	for _, path := range edgeFiles {
		n, err := countLines(path)
		if err != nil {
			return nil, nil, fmt.Errorf("load hetionet: %w", err)
		}
		if rel, err := hetionetRelation(path); err == nil && undirected(rel) {
			n *= 2
		}
		capacity += n
	}
	triples := make([]base.Triple, 0, capacity)
	for _, path := range edgeFiles {
		err := readFile(path, func(f *os.File) error {
			return ReadHetionetEdges(f, path, ids, func(t base.Triple) error { triples = append(triples, t); return nil })
		})
		if err != nil {
			return nil, nil, fmt.Errorf("load hetionet: %w", err)
		}
	}
	return ents, triples, nil
}

func countLines(path string) (int, error) {
	n := 0
	err := readFile(path, func(f *os.File) error {
		buf := make([]byte, 256<<10)
		for {
			k, err := f.Read(buf)
			n += bytes.Count(buf[:k], []byte("\n"))
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
		}
	})
	return n, err
}

func readFile(path string, read func(*os.File) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return read(f)
}
