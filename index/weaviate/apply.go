package weaviate

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-openapi/strfmt"
	"github.com/google/uuid"
	wv "github.com/weaviate/weaviate-go-client/v5/weaviate"
	"github.com/weaviate/weaviate-go-client/v5/weaviate/filters"
	"github.com/weaviate/weaviate/entities/models"

	"github.com/medkb/medkb/index/bm25"
	"github.com/medkb/medkb/internal/base"
)

// batchSize bounds the objects (or deletes) of one request.
const batchSize = 500

// writeConsistency is what a write waits for: a majority of replicas, so
// a write succeeds with one of three nodes down.
const writeConsistency = "QUORUM"

// namespace is the UUID namespace of object ids (a version 5 UUID of
// "medkb" in the URL namespace).
var namespace = uuid.NewSHA1(uuid.NameSpaceURL, []byte("medkb"))

// ObjectID is the id of chunk ord's object in collection: a version 5
// UUID of both, so that writing a chunk twice (a replay) replaces it.
func ObjectID(collection string, ord uint64) strfmt.UUID {
	return strfmt.UUID(uuid.NewSHA1(namespace, fmt.Appendf(nil, "%s/%d", collection, ord)).String())
}

// Apply removes the chunks in deletes and upserts adds, whose vectors
// are vecs (one per add, unit length), in batches: deletes first, so an
// ordinal in both ends up stored. It is idempotent (object ids derive
// from ordinals), so a failed Apply is repaired by applying again;
// which batches reached the cluster before a failure is not known.
func (ix *Index) Apply(ctx context.Context, deletes []uint64, adds []bm25.Doc, vecs [][]float32) error {
	if len(vecs) != len(adds) {
		return fmt.Errorf("weaviate: apply: %d chunks, %d vectors", len(adds), len(vecs))
	}
	for i := 0; i < len(deletes); i += batchSize {
		if err := ix.delete(ctx, deletes[i:min(i+batchSize, len(deletes))]); err != nil {
			return err
		}
	}
	for i := 0; i < len(adds); i += batchSize {
		j := min(i+batchSize, len(adds))
		if err := ix.put(ctx, adds[i:j], vecs[i:j]); err != nil {
			return err
		}
	}
	return nil
}

// Clear deletes every object of the collection, keeping the collection
// and its aliases, in rounds of Weaviate's limit on one batch delete.
func (ix *Index) Clear(ctx context.Context) error {
	all := filters.Where().WithPath([]string{propOrd}).WithOperator(filters.GreaterThanEqual).WithValueInt(0)
	for {
		var matched int64
		err := ix.c.do(ctx, "emptying "+ix.opts.Collection, func(cl *wv.Client) error {
			res, err := cl.Batch().ObjectsBatchDeleter().WithClassName(ix.opts.Collection).WithWhere(all).
				WithConsistencyLevel(writeConsistency).Do(ctx)
			if err != nil {
				return err
			}
			if r := res.Results; r != nil {
				if r.Failed > 0 {
					return fmt.Errorf("%d of %d deletes failed", r.Failed, r.Matches)
				}
				matched = r.Matches
			}
			return nil
		})
		if err != nil || matched == 0 {
			return err
		}
	}
}

func (ix *Index) delete(ctx context.Context, ords []uint64) error {
	vals := make([]int64, len(ords))
	for i, o := range ords {
		vals[i] = int64(o)
	}
	w := filters.Where().WithPath([]string{propOrd}).WithOperator(filters.ContainsAny).WithValueInt(vals...)
	return ix.c.do(ctx, fmt.Sprintf("deleting %d chunks from %s", len(ords), ix.opts.Collection), func(cl *wv.Client) error {
		res, err := cl.Batch().ObjectsBatchDeleter().WithClassName(ix.opts.Collection).WithWhere(w).
			WithConsistencyLevel(writeConsistency).Do(ctx)
		if err != nil {
			return err
		}
		if r := res.Results; r != nil && r.Failed > 0 {
			return fmt.Errorf("%d of %d deletes failed", r.Failed, r.Matches)
		}
		return nil
	})
}

func (ix *Index) put(ctx context.Context, docs []bm25.Doc, vecs [][]float32) error {
	tokens := ix.an.Tokens(docs)
	objs := make([]*models.Object, len(docs))
	for i := range docs {
		objs[i] = &models.Object{Class: ix.opts.Collection, ID: ObjectID(ix.opts.Collection, docs[i].Ord),
			Properties: objectProperties(&docs[i], tokens[i]), Vector: vecs[i]}
	}
	return ix.c.do(ctx, fmt.Sprintf("writing %d chunks to %s", len(docs), ix.opts.Collection), func(cl *wv.Client) error {
		res, err := cl.Batch().ObjectsBatcher().WithObjects(objs...).WithConsistencyLevel(writeConsistency).Do(ctx)
		if err != nil {
			return err
		}
		for _, r := range res {
			if r.Result != nil && r.Result.Errors != nil && len(r.Result.Errors.Error) > 0 {
				return fmt.Errorf("object %s: %s", r.ID, r.Result.Errors.Error[0].Message)
			}
		}
		return nil
	})
}

// objectProperties are d's properties; absent values (empty strings,
// TierNone, NoDay) are left out, so only != matches them.
func objectProperties(d *bm25.Doc, tokens []string) map[string]any {
	p := map[string]any{propOrd: int64(d.Ord), propTerms: strings.Join(tokens, " ")}
	vals := [...]string{d.Tier.String(), d.Type, d.Patient, d.Source, d.Evidence, d.Lang, d.Doc}
	for i, f := range keywordFields {
		if vals[i] != "" {
			p[f] = vals[i]
		}
	}
	if d.Time != base.NoDay {
		p[fieldTime] = int64(d.Time)
	}
	if len(d.Meta) > 0 {
		meta := make([]string, 0, len(d.Meta))
		for k, v := range d.Meta {
			meta = append(meta, metaValue(k, v))
		}
		p[propMeta] = meta
	}
	return p
}
