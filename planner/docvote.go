package planner

import (
	"context"
	"fmt"

	"github.com/medkb/medkb/dsl"
)

// docVote is ICA-RAG's chunk-to-document vote (seed 004): the query's
// sentences are labelled as the completeness gate labels them, and only
// the A and B sentences retrieve (C sentences add noise); each retrieves
// its top m chunks with the voting arms (BM25 by default: on NFCorpus the
// weak hash-vector arm's votes cost nDCG); a document scores the number
// of its distinct chunks so retrieved, ties broken by the RRF of the
// full-query lists; and the top k documents are kept, each with all its
// chunks, not only the retrieved ones. Every chunk of a document carries
// the document's score, so a document's chunks stay together in reading
// order.
func (x *execution) docVote(ctx context.Context, full arms) ([]Fused, string, error) {
	f := x.p.Fuse
	r, err := x.readGate(ctx)
	if err != nil {
		return nil, "", err
	}
	sentences := r.Queries(x.p.Query.Text)
	per, err := x.vote(ctx, sentences)
	if err != nil {
		return nil, "", err
	}
	docOf, err := x.docOf(full, per)
	if err != nil {
		return nil, "", err
	}
	ranked := fuseDocVote(full, per, docOf, f.K, f.VectorWeight)
	out, docs, err := x.wholeDocuments(ranked, docOf, f.Docs)
	if err != nil {
		return nil, "", err
	}
	note := fmt.Sprintf("%d of %d sentence(s) voted (A/B) with %s; top %d document(s), %d chunk(s)",
		len(sentences), len(r.Units), f.Votes, docs, len(out))
	return out, note, nil
}

// vote retrieves the top m chunks of each sentence with the voting arms.
func (x *execution) vote(ctx context.Context, sentences []string) ([]arms, error) {
	f := x.p.Fuse
	var vecs [][]float32
	if f.Votes != dsl.VotesBM25 {
		var err error
		if vecs, err = x.env.Embedder.Embed(ctx, sentences); err != nil {
			return nil, err
		}
	}
	out := make([]arms, len(sentences))
	for i, s := range sentences {
		for _, a := range x.p.Arms {
			a.K = f.M
			var err error
			switch {
			case a.Arm == "bm25" && f.Votes != dsl.VotesVector:
				out[i].bm25, err = x.env.backend().SearchBM25(ctx, s, a)
			case a.Arm == "vector" && f.Votes != dsl.VotesBM25:
				out[i].vector, err = x.env.backend().SearchVector(ctx, vecs[i], a)
			}
			if err != nil {
				return nil, err
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// wholeDocuments keeps the chunks of the first k documents of ranked and
// adds their other chunks, each with its document's score and votes; it
// returns them ordered by document, then by ordinal (reading order), and
// the number of documents kept.
func (x *execution) wholeDocuments(ranked []Fused, docOf func(uint64) string, k int) ([]Fused, int, error) {
	type doc struct {
		id    string
		best  Fused
		found map[uint64]Fused
	}
	var docs []*doc
	byID := map[string]*doc{}
	for _, c := range ranked {
		id := docOf(c.Ord)
		d := byID[id]
		if d == nil {
			if len(docs) == k {
				continue
			}
			d = &doc{id: id, best: c, found: map[uint64]Fused{}}
			byID[id] = d
			docs = append(docs, d)
		}
		d.found[c.Ord] = c
	}
	var out []Fused
	for _, d := range docs {
		_, ords, err := x.env.Store.Doc(d.id)
		if err != nil {
			return nil, 0, err
		}
		if len(ords) == 0 { // deleted since retrieval: what was found stands
			for ord := range d.found {
				ords = append(ords, ord)
			}
		}
		for _, ord := range ords {
			c, ok := d.found[ord]
			if !ok {
				c = Fused{Ord: ord}
			}
			c.Score, c.Votes = d.best.Score, d.best.Votes
			out = append(out, c)
		}
	}
	sortFused(out)
	return out, len(docs), nil
}

// docOf resolves the documents of every chunk the arms retrieved.
func (x *execution) docOf(full arms, per []arms) (func(uint64) string, error) {
	var ords []uint64
	for _, a := range append([]arms{full}, per...) {
		for _, h := range append(a.bm25, a.vector...) {
			ords = append(ords, h.Ord)
		}
	}
	chunks, err := x.env.Store.Chunks(ords)
	if err != nil {
		return nil, err
	}
	docs := make(map[uint64]string, len(ords))
	for _, c := range chunks {
		if c != nil {
			docs[c.Ord] = c.Doc
		}
	}
	return func(ord uint64) string {
		if d, ok := docs[ord]; ok {
			return d
		}
		return fmt.Sprintf("#%d", ord) // deleted meanwhile: its own document
	}, nil
}
