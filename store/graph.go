package store

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
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
// twice is stored once (the last one given keeps its source and weight); a
// reverse index serves traversal against the edge direction. Entity
// aliases are merged with those already stored. Triple endpoints become
// entities when they are not yet.
//
// Every key is written once and in key order. bbolt keeps the keys a
// transaction adds to a page in one sorted slice until the commit splits
// it, so adding n keys in random order into a new bucket moves O(n²)
// slice elements: Hetionet's 981,679 triples took most of half an hour.
// Sorted, each key lands at the end of its page; endpoints are merged in
// memory first, so an entity named by many triples is read once.
func (s *Store) PutGraph(ents []base.Entity, triples []base.Triple) (GraphChange, error) {
	var gc GraphChange
	if s.readOnly {
		return gc, ErrReadOnly
	}
	aliases := make(map[string][]string, len(ents))
	for _, e := range ents {
		k := string(joinKey(e.Type, e.Name))
		aliases[k] = append(aliases[k], e.Aliases...)
	}
	trips := make([]keyValue, len(triples))
	rtrips := make([][]byte, len(triples))
	for i, t := range triples {
		for _, k := range []string{string(joinKey(t.HeadType, t.Head)), string(joinKey(t.TailType, t.Tail))} {
			if _, ok := aliases[k]; !ok {
				aliases[k] = nil
			}
		}
		v, err := json.Marshal(tripleValue{Source: t.Source, Weight: t.Weight})
		if err != nil {
			return gc, err
		}
		trips[i] = keyValue{joinKey(t.HeadType, t.Head, t.Relation, t.TailType, t.Tail), v}
		rtrips[i] = joinKey(t.TailType, t.Tail, t.Relation, t.HeadType, t.Head)
	}
	entKeys := make([]string, 0, len(aliases))
	for k := range aliases {
		entKeys = append(entKeys, k)
	}
	sort.Strings(entKeys)
	trips = lastPerKey(trips)
	slices.SortFunc(rtrips, bytes.Compare)
	rtrips = slices.CompactFunc(rtrips, bytes.Equal)
	err := s.update(func(tx *bolt.Tx) error {
		eb, tb, rb := tx.Bucket(bucketEnts), tx.Bucket(bucketTrip), tx.Bucket(bucketRTrip)
		for _, k := range entKeys {
			old := eb.Get([]byte(k))
			if old != nil && len(aliases[k]) == 0 {
				continue
			}
			var have []string
			if old != nil {
				if err := json.Unmarshal(old, &have); err != nil {
					return corruptf("entity %q: %v", strings.ReplaceAll(k, "\x00", " "), err)
				}
			} else {
				gc.Entities++
			}
			v, err := json.Marshal(mergeAliases(have, aliases[k]))
			if err != nil {
				return err
			}
			if err := eb.Put([]byte(k), v); err != nil {
				return err
			}
		}
		for _, t := range trips {
			if tb.Get(t.key) == nil {
				gc.Triples++
			}
			if err := tb.Put(t.key, t.value); err != nil {
				return err
			}
		}
		for _, k := range rtrips {
			if err := rb.Put(k, nil); err != nil {
				return err
			}
		}
		meta := tx.Bucket(bucketMeta)
		addU64(meta, keyEntities, gc.Entities)
		addU64(meta, keyTriples, gc.Triples)
		addU64(meta, keyGraphSeq, 1)
		return nil
	})
	if err != nil {
		return GraphChange{}, err
	}
	return gc, nil
}

type keyValue struct{ key, value []byte }

// lastPerKey sorts kvs by key and keeps the last of each key as given.
func lastPerKey(kvs []keyValue) []keyValue {
	slices.SortStableFunc(kvs, func(a, b keyValue) int { return bytes.Compare(a.key, b.key) })
	out := kvs[:0]
	for i, kv := range kvs {
		if i+1 < len(kvs) && bytes.Equal(kv.key, kvs[i+1].key) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

type tripleValue struct {
	Source string  `json:"s,omitempty"`
	Weight float64 `json:"w,omitempty"`
}

// LoadEntities reads every entity, in key order, without the triples.
func (s *Store) LoadEntities() ([]base.Entity, error) {
	var ents []base.Entity
	err := s.view(func(tx *bolt.Tx) error {
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
			return corruptf("entity key %q", k)
		}
		e := base.Entity{Type: f[0], Name: f[1]}
		if err := json.Unmarshal(v, &e.Aliases); err != nil {
			return corruptf("entity %q: %v", k, err)
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
	err := s.view(func(tx *bolt.Tx) (err error) {
		meta := tx.Bucket(bucketMeta)
		ver = GraphVersion{Seq: getU64(meta, keyGraphSeq), Entities: int(getU64(meta, keyEntities)), Triples: int(getU64(meta, keyTriples))}
		ents, triples, err = readGraph(ctx, tx)
		return err
	})
	return ents, triples, ver, err
}

// readGraph reads every entity and triple of tx; it stops with ctx's
// error when ctx ends.
func readGraph(ctx context.Context, tx *bolt.Tx) (ents []base.Entity, triples []base.Triple, err error) {
	if ents, err = readEntities(tx); err != nil {
		return nil, nil, err
	}
	err = tx.Bucket(bucketTrip).ForEach(func(k, v []byte) error {
		if len(triples)%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		f := splitKey(k, 5)
		if f == nil {
			return corruptf("triple key %q", k)
		}
		var tv tripleValue
		if err := json.Unmarshal(v, &tv); err != nil {
			return corruptf("triple %q: %v", k, err)
		}
		triples = append(triples, base.Triple{HeadType: f[0], Head: f[1], Relation: f[2],
			TailType: f[3], Tail: f[4], Source: tv.Source, Weight: tv.Weight})
		return nil
	})
	return ents, triples, err
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
