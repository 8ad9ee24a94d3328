package bm25

import (
	"encoding/binary"
	"fmt"

	"github.com/blevesearch/bleve/v2/analysis"

	"github.com/medkb/medkb/store"
)

// Apply makes the index reflect store sequence seq: it removes the chunks
// in deletes and indexes adds (replacing any chunk with the same ordinal),
// all in one bleve batch that also records seq. The batch is durable when
// Apply returns, and after a crash the recorded seq always describes the
// content exactly: both are written in one scorch snapshot.
//
// Within one call deletes go first, so an ordinal both deleted and added
// ends up indexed. seq may equal the current sequence (replaying a batch is
// harmless: upserts and deletes are idempotent) but not go below it.
//
// The batch also records the running length statistics (see lengthStats);
// texts are analysed here, on all CPUs, rather than inside scorch, so their
// lengths are known before the batch is written.
//
// An error (a full disk, say) leaves the persisted index as it was, but
// scorch may already serve the batch from memory, report its seq, and keep
// retrying the write in the background: close the index after a failed
// Apply; opened again it reflects exactly the last persisted seq.
func (ix *Index) Apply(seq uint64, deletes []uint64, adds []Doc) error {
	return ix.ApplyAnalyzed(seq, deletes, adds, ix.Analyze(adds))
}

// Analyzed holds the analysed texts of documents, from Analyze.
type Analyzed struct {
	streams []analysis.TokenStream
}

// Analyze analyses the texts of adds on all CPUs, for ApplyAnalyzed. It
// writes nothing and needs no lock, so a writer can analyse its next
// batch while the index writes this one.
func (ix *Index) Analyze(adds []Doc) Analyzed {
	return Analyzed{streams: ix.an.analyze(adds)}
}

// ApplyAnalyzed is Apply given Analyze(adds).
func (ix *Index) ApplyAnalyzed(seq uint64, deletes []uint64, adds []Doc, an Analyzed) (err error) {
	if len(an.streams) != len(adds) {
		return fmt.Errorf("bm25: apply seq %d: %d documents, %d analysed", seq, len(adds), len(an.streams))
	}
	if ix.readOnly {
		return fmt.Errorf("bm25: %w (the bm25 index)", store.ErrReadOnly)
	}
	defer recoverCorrupt(fmt.Sprintf("apply seq %d", seq), &err)
	ix.applyMu.Lock()
	defer ix.applyMu.Unlock()

	cur, err := ix.Seq()
	if err != nil {
		return err
	}
	if seq < cur {
		return fmt.Errorf("bm25: apply seq %d over %d: %w", seq, cur, ErrStaleSeq)
	}

	streams := an.streams
	b := ix.bleve.NewBatch()
	for _, ord := range deletes {
		b.Delete(encodeOrd(ord))
	}
	for i := range adds {
		if err := b.IndexAdvanced(ix.an.toDocument(&adds[i], streams[i])); err != nil {
			return fmt.Errorf("bm25: apply seq %d: ord %d: %w", seq, adds[i].Ord, err)
		}
	}
	var val [8]byte
	binary.BigEndian.PutUint64(val[:], seq)
	b.SetInternal([]byte(seqKey), val[:])
	ix.statsMu.Lock()
	stats := ix.stats.add(streams)
	ix.statsMu.Unlock()
	b.SetInternal([]byte(statsKey), stats.encode())

	if err := ix.bleve.Batch(b); err != nil {
		return fmt.Errorf("bm25: apply seq %d: %w", seq, err)
	}
	ix.statsMu.Lock()
	ix.stats = stats
	ix.statsMu.Unlock()
	return nil
}

// Seq returns the store write sequence the index reflects, 0 for a new
// index.
func (ix *Index) Seq() (uint64, error) {
	val, err := ix.bleve.GetInternal([]byte(seqKey))
	if err != nil {
		return 0, fmt.Errorf("bm25: read seq: %w", err)
	}
	switch len(val) {
	case 0:
		return 0, nil
	case 8:
		return binary.BigEndian.Uint64(val), nil
	}
	return 0, fmt.Errorf("bm25: read seq: %w: %d bytes", ErrCorrupt, len(val))
}
