package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/medkb/medkb/internal/base"
)

// GraphChange counts what PutGraph added.
type GraphChange struct {
	Entities int // new entities (named explicitly or as triple endpoints)
	Triples  int // new triples; a triple already stored is not counted
}

// PutGraph stores entities and triples in one transaction. Triples are
// keyed by (head type, head, relation, tail type, tail), so the same triple
// twice is stored once; a reverse index serves traversal against the edge
// direction. Entity aliases are merged with those already stored. Triple
// endpoints become entities when they are not yet.
func (s *Store) PutGraph(ents []base.Entity, triples []base.Triple) (GraphChange, error) {
	var gc GraphChange
	if s.readOnly {
		return gc, ErrReadOnly
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		eb, tb, rb := tx.Bucket(bucketEnts), tx.Bucket(bucketTrip), tx.Bucket(bucketRTrip)
		putEnt := func(e base.Entity) error {
			k := joinKey(e.Type, e.Name)
			old := eb.Get(k)
			if old != nil && len(e.Aliases) == 0 {
				return nil
			}
			var aliases []string
			if old != nil {
				if err := json.Unmarshal(old, &aliases); err != nil {
					return fmt.Errorf("%w: entity %s %q: %v", errCorrupt, e.Type, e.Name, err)
				}
			} else {
				gc.Entities++
			}
			aliases = mergeAliases(aliases, e.Aliases)
			v, err := json.Marshal(aliases)
			if err != nil {
				return err
			}
			return eb.Put(k, v)
		}
		for _, e := range ents {
			if err := putEnt(e); err != nil {
				return err
			}
		}
		for _, t := range triples {
			for _, e := range []base.Entity{{Name: t.Head, Type: t.HeadType}, {Name: t.Tail, Type: t.TailType}} {
				if err := putEnt(e); err != nil {
					return err
				}
			}
			k := joinKey(t.HeadType, t.Head, t.Relation, t.TailType, t.Tail)
			if tb.Get(k) == nil {
				gc.Triples++
			}
			v, err := json.Marshal(tripleValue{Source: t.Source, Weight: t.Weight})
			if err != nil {
				return err
			}
			if err := tb.Put(k, v); err != nil {
				return err
			}
			if err := rb.Put(joinKey(t.TailType, t.Tail, t.Relation, t.HeadType, t.Head), nil); err != nil {
				return err
			}
		}
		meta := tx.Bucket(bucketMeta)
		addU64(meta, keyEntities, gc.Entities)
		addU64(meta, keyTriples, gc.Triples)
		addU64(meta, keyGraphSeq, 1)
		return nil
	})
	return gc, err
}

type tripleValue struct {
	Source string  `json:"s,omitempty"`
	Weight float64 `json:"w,omitempty"`
}

// LoadEntities reads every entity, in key order, without the triples.
func (s *Store) LoadEntities() ([]base.Entity, error) {
	var ents []base.Entity
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		ents, err = readEntities(tx)
		return err
	})
	return ents, err
}

func readEntities(tx *bolt.Tx) ([]base.Entity, error) {
	var ents []base.Entity
	err := tx.Bucket(bucketEnts).ForEach(func(k, v []byte) error {
		f := splitKey(k, 2)
		if f == nil {
			return fmt.Errorf("%w: entity key %q", errCorrupt, k)
		}
		e := base.Entity{Type: f[0], Name: f[1]}
		if err := json.Unmarshal(v, &e.Aliases); err != nil {
			return fmt.Errorf("%w: entity %q: %v", errCorrupt, k, err)
		}
		ents = append(ents, e)
		return nil
	})
	return ents, err
}

// LoadGraph reads every entity and triple, in key order.
func (s *Store) LoadGraph() ([]base.Entity, []base.Triple, error) {
	ents, triples, _, err := s.LoadGraphVersion(context.Background())
	return ents, triples, err
}

// GraphVersion identifies the state of a store's graph: the graph
// sequence and the entity and triple counters. A derived form of the
// graph records the version it was built from and is current while the
// store's is the same (Meta.GraphVersion). The counters catch a writer
// that predates the sequence and adds entities or triples without
// bumping it.
type GraphVersion struct {
	Seq               uint64
	Entities, Triples int
}

// GraphVersion returns the version of the graph m describes.
func (m Meta) GraphVersion() GraphVersion {
	return GraphVersion{Seq: m.GraphSeq, Entities: m.Entities, Triples: m.Triples}
}

// LoadGraphVersion is LoadGraph that also returns the version the
// entities and triples are as of, read in the same transaction. It
// stops with ctx's error when ctx ends (a store's Close waits for the
// read to end, and Hetionet's takes seconds).
func (s *Store) LoadGraphVersion(ctx context.Context) ([]base.Entity, []base.Triple, GraphVersion, error) {
	var ents []base.Entity
	var triples []base.Triple
	var ver GraphVersion
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		if ents, err = readEntities(tx); err != nil {
			return err
		}
		meta := tx.Bucket(bucketMeta)
		ver = GraphVersion{Seq: getU64(meta, keyGraphSeq), Entities: int(getU64(meta, keyEntities)), Triples: int(getU64(meta, keyTriples))}
		return tx.Bucket(bucketTrip).ForEach(func(k, v []byte) error {
			if len(triples)%4096 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			f := splitKey(k, 5)
			if f == nil {
				return fmt.Errorf("%w: triple key %q", errCorrupt, k)
			}
			var tv tripleValue
			if err := json.Unmarshal(v, &tv); err != nil {
				return fmt.Errorf("%w: triple %q: %v", errCorrupt, k, err)
			}
			triples = append(triples, base.Triple{HeadType: f[0], Head: f[1], Relation: f[2],
				TailType: f[3], Tail: f[4], Source: tv.Source, Weight: tv.Weight})
			return nil
		})
	})
	return ents, triples, ver, err
}

func joinKey(parts ...string) []byte { return []byte(strings.Join(parts, "\x00")) }

func splitKey(k []byte, n int) []string {
	parts := bytes.Split(k, []byte{0})
	if len(parts) != n {
		return nil
	}
	out := make([]string, n)
	for i, p := range parts {
		out[i] = string(p)
	}
	return out
}

func mergeAliases(have, more []string) []string {
	seen := make(map[string]bool, len(have)+len(more))
	out := make([]string, 0, len(have)+len(more))
	for _, a := range append(have, more...) {
		if a != "" && !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}
