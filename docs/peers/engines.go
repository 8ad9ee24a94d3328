package main

import (
	"context"
	"fmt"
	"strconv"

	chromem "github.com/philippgille/chromem-go"

	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/internal/base"
)

// loadMedkb loads the vectors into medkb's exact index the way the store
// does (a slab from the index's own allocator, every slot alive) and
// searches with no filter: the float32 scan, or with int8 the int8 scan
// whose best candidates are rescored exactly (the codes are made before
// timing starts, by one search).
func loadMedkb(d *Data, int8 bool) (searcher, error) {
	ix := vector.New(d.Dim)
	vecs := ix.Floats(len(d.Vecs))
	copy(vecs, d.Vecs)
	slots := make([]base.Slot, d.N)
	for i := range slots {
		slots[i] = base.Slot{Ord: uint64(i), Alive: true}
	}
	if err := ix.Load(slots, vecs); err != nil {
		return nil, err
	}
	scan := vector.ScanF32
	if int8 {
		scan = vector.ScanInt8
		if _, err := ix.SearchWith(d.Queries[:d.Dim], K, nil, scan); err != nil {
			return nil, err
		}
	}
	return func(q []float32) []int {
		hits, _ := ix.SearchWith(q, K, nil, scan)
		ids := make([]int, len(hits))
		for i, h := range hits {
			ids[i] = int(h.Ord)
		}
		return ids
	}, nil
}

// loadChromem adds the vectors with their embeddings to an in-memory
// chromem-go collection (no embedding function is ever called) and queries
// it by embedding. QueryEmbedding is exhaustive: it scores every document
// of the collection with a dot product, on runtime.NumCPU() goroutines.
func loadChromem(d *Data) (searcher, error) {
	ctx := context.Background()
	db := chromem.NewDB()
	noEmbed := func(context.Context, string) ([]float32, error) {
		return nil, fmt.Errorf("peers: chromem asked to embed text")
	}
	c, err := db.CreateCollection("peers", nil, noEmbed)
	if err != nil {
		return nil, err
	}
	docs := make([]chromem.Document, d.N)
	for i := range docs {
		docs[i] = chromem.Document{ID: strconv.Itoa(i), Embedding: d.Vecs[i*d.Dim : (i+1)*d.Dim : (i+1)*d.Dim]}
	}
	if err := c.AddDocuments(ctx, docs, 4); err != nil {
		return nil, err
	}
	var searchErr error
	search := func(q []float32) []int {
		res, err := c.QueryEmbedding(ctx, q, K, nil, nil)
		if err != nil && searchErr == nil {
			searchErr = err
		}
		ids := make([]int, len(res))
		for i, r := range res {
			ids[i], _ = strconv.Atoi(r.ID)
		}
		return ids
	}
	// One query up front, so that an API error stops the run instead of
	// showing as a recall of 0.
	if search(d.Queries[:d.Dim]); searchErr != nil {
		return nil, searchErr
	}
	return search, nil
}
