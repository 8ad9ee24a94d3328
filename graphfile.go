package medkb

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/internal/fsync"
	"github.com/medkb/medkb/store"
)

// The knowledge graph EXPAND walks is derived from the stored triples.
// Building it takes seconds and most of a gigabyte on Hetionet (reading
// 981,679 triples out of bbolt, then graph.Build), so a generation keeps
// the built graph's compact form beside its bbolt file, in graphFile,
// and a process opens it with one read and graph.Decode (tens of
// milliseconds, 11 MB).
//
// The file records the store.GraphVersion it was built from: the graph
// sequence, which every PutGraph bumps in the transaction that writes
// the triples, and the entity and triple counters, read in the
// transaction the triples were read in. It is current while the store's
// version is the same; otherwise, or when it is missing or damaged (a
// CRC-32C covers the graph's bytes), the graph is built from the triples
// again and the file replaced, atomically (fsync.WriteFile). The file is
// never the system of record: deleting it costs one build.
//
// Who writes it: whoever opens a graph whose file is not current
// (OpenGraph, which medkb ingest calls after graph files, or the first
// query that expands), read-only processes included (best effort: a
// read-only process may lack the permission, and then builds on every
// first use). Writers and read-only processes never run at once on one
// store (bbolt's file lock), so a reader cannot replace a
// writer's newer file; concurrent readers write the same bytes.

// graphFile is the graph's compact form in a generation directory.
const graphFile = "graph.bin"

// graphMagic starts graphFile; its last byte is the version of the
// header. The header then holds the store.GraphVersion (three u64) and
// the CRC-32C of the rest, which is graph.Graph.MarshalBinary's.
const graphMagic = "MKBGRAF1"

const graphHeaderSize = len(graphMagic) + 3*8 + 4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// encodeGraphFile returns the contents of graphFile for g built at v.
func encodeGraphFile(g *graph.Graph, v store.GraphVersion) ([]byte, error) {
	payload, err := g.MarshalBinary()
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, graphHeaderSize+len(payload))
	b = append(b, graphMagic...)
	b = binary.LittleEndian.AppendUint64(b, v.Seq)
	b = binary.LittleEndian.AppendUint64(b, uint64(v.Entities))
	b = binary.LittleEndian.AppendUint64(b, uint64(v.Triples))
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(payload, castagnoli))
	return append(b, payload...), nil
}

// graphHeader checks the header at the start of data (graphHeaderSize
// bytes or more) against the version want and returns the payload's
// checksum; the error says how it does not match.
func graphHeader(data []byte, want store.GraphVersion) (uint32, error) {
	if len(data) < graphHeaderSize || string(data[:len(graphMagic)]) != graphMagic {
		return 0, fmt.Errorf("%s is damaged or of another version (no %q header)", graphFile, graphMagic)
	}
	h := data[len(graphMagic):]
	have := store.GraphVersion{Seq: binary.LittleEndian.Uint64(h),
		Entities: int(binary.LittleEndian.Uint64(h[8:])), Triples: int(binary.LittleEndian.Uint64(h[16:]))}
	if have != want {
		return 0, fmt.Errorf("%s is as of graph write %d (%d entities, %d triples), the store is at write %d (%d, %d)",
			graphFile, have.Seq, have.Entities, have.Triples, want.Seq, want.Entities, want.Triples)
	}
	return binary.LittleEndian.Uint32(h[24:]), nil
}

// readGraphFile opens the graph in path when it was built at version
// want. The error says why not: missing, built at another version, or
// damaged.
func readGraphFile(path string, want store.GraphVersion) (*graph.Graph, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s is missing", graphFile)
	}
	if err != nil {
		return nil, err
	}
	sum, err := graphHeader(data, want)
	if err != nil {
		return nil, err
	}
	payload := data[graphHeaderSize:]
	if crc32.Checksum(payload, castagnoli) != sum {
		return nil, fmt.Errorf("%s is damaged (checksum mismatch)", graphFile)
	}
	g, err := graph.Decode(payload)
	if err != nil {
		return nil, fmt.Errorf("%s is damaged: %w", graphFile, err)
	}
	return g, nil
}

// graphState is a generation's knowledge graph, opened once. done is
// closed when the other fields are set.
type graphState struct {
	done chan struct{}
	g    *graph.Graph // nil when the store has no graph
	note string       // how it was opened, for EXPLAIN ANALYZE
	err  error
}

// wait returns the graph once it is open, or ctx's error when ctx ends
// first (the opening goes on).
func (gs *graphState) wait(ctx context.Context) (*graph.Graph, string, error) {
	select {
	case <-gs.done:
	default:
		select {
		case <-gs.done:
		case <-ctx.Done():
			return nil, "", ctx.Err()
		}
	}
	return gs.g, gs.note, gs.err
}

// loadGraph returns the generation's graph, opening it on first use, in
// the background: a query waits only until its context ends, and a
// later query finds the graph open. Closing the generation stops an
// opening in flight (stopGraph).
func (g *generation) loadGraph(ctx context.Context) (*graph.Graph, string, error) {
	g.graphMu.Lock()
	gs := g.graph
	if gs == nil {
		gs = &graphState{done: make(chan struct{})}
		g.graph = gs
		bg, stop := context.WithCancel(context.Background())
		g.stopOpening = stop
		go func() {
			gs.g, gs.note, gs.err = openGraph(bg, g.st)
			stop()
			close(gs.done)
		}()
	}
	g.graphMu.Unlock()
	return gs.wait(ctx)
}

// stopGraph stops an opening of the graph in flight, so that closing
// the store does not wait seconds for its read of the triples.
func (g *generation) stopGraph() {
	g.graphMu.Lock()
	if g.stopOpening != nil {
		g.stopOpening()
	}
	g.graphMu.Unlock()
}

// dropGraph forgets the generation's graph after a graph write
// (IngestGraph), stopping an opening in flight: the next use opens it
// again, so an ingest of many graph files (one write each) builds it
// once, not once per file.
func (g *generation) dropGraph() {
	g.graphMu.Lock()
	if g.stopOpening != nil {
		g.stopOpening()
	}
	g.graph, g.stopOpening = nil, nil
	g.graphMu.Unlock()
}

// OpenGraph opens the knowledge graph now rather than at the first query
// that expands: from its compact form when that is current, else built
// from the triples, with the compact form saved for the next process.
// medkb ingest calls it after writing graph files, so that a cold query
// opens the graph in one read. The note says how it was opened and how
// long it took; "" when the store has no graph.
func (db *DB) OpenGraph(ctx context.Context) (string, error) {
	g, release, err := db.snapshot()
	if err != nil {
		return "", err
	}
	defer release()
	_, note, err := g.loadGraph(ctx)
	return note, err
}

// openGraph opens st's graph from its file when that is current, else
// builds it from the triples and saves the file; nil when the store has
// no graph. The note says which, and how long it took.
func openGraph(ctx context.Context, st *store.Store) (*graph.Graph, string, error) {
	start := time.Now()
	m, err := st.Meta()
	if err != nil {
		return nil, "", err
	}
	g, why := readGraphFile(filepath.Join(st.GenDir(), graphFile), m.GraphVersion())
	if why == nil {
		return g, fmt.Sprintf("read from %s in %s", graphFile, millis(start)), nil
	}
	g, note, err := buildGraph(ctx, st)
	if g != nil {
		note += " (" + why.Error() + ")"
	}
	return g, note, err
}

// buildGraph builds st's graph from its entities and triples and saves
// its file; nil when the store has none. The note says how long it took
// and whether the file was saved; failing to save it is not an error
// (the next opening builds again). ctx stops the read of the triples.
func buildGraph(ctx context.Context, st *store.Store) (*graph.Graph, string, error) {
	start := time.Now()
	ents, triples, v, err := st.LoadGraphVersion(ctx)
	if err != nil || len(ents)+len(triples) == 0 {
		return nil, "", err
	}
	g := graph.Build(ents, triples)
	note := fmt.Sprintf("built from %d triples in %s", len(triples), millis(start))
	data, err := encodeGraphFile(g, v)
	if err == nil {
		err = fsync.WriteFile(filepath.Join(st.GenDir(), graphFile), data, 0o644)
	}
	if err != nil {
		return g, note + fmt.Sprintf("; %s not saved: %v", graphFile, err), nil
	}
	return g, note + "; saved " + graphFile, nil
}

// millis is the time since start as EXPLAIN ANALYZE writes times
// ("12.345 ms"), so that tests mask it alike.
func millis(start time.Time) string {
	return fmt.Sprintf("%.3f ms", float64(time.Since(start).Microseconds())/1000)
}
