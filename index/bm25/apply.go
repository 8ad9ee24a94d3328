package bm25

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/blevesearch/bleve/v2"
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
func (ix *Index) Apply(seq uint64, deletes []uint64, adds []Doc) (err error) {
	defer recoverCorrupt(fmt.Sprintf("apply seq %d", seq), &err)
	ix.applyMu.Lock()
	defer ix.applyMu.Unlock()
	if err := ix.checkApply(seq); err != nil {
		return err
	}
	streams := ix.an.analyze(adds)
	b := ix.bleve.NewBatch()
	for _, ord := range deletes {
		b.Delete(encodeOrd(ord))
	}
	if err := ix.addDocs(b, seq, adds, streams); err != nil {
		return err
	}
	return ix.commit(b, seq, ix.currentStats().add(streams))
}

// ApplyBatches is Apply for more adds than one bleve batch should hold:
// it indexes them in equal batches of at most size documents, which
// bounds the memory a batch takes (evenBatches), batchesInFlight at a
// time, so that scorch builds two segments at once (building one is
// serial) and overlaps their fsyncs, while the texts of the next batch
// are analysed. A last batch without
// documents then removes deletes (those not added again: the end state is
// Apply's) and records seq and the length statistics.
//
// The document batches record nothing, so an interruption before the last
// one leaves seq and the statistics as they were, with some of adds
// indexed already; replaying the write (the store's log still holds it)
// indexes them again, idempotently, and counts their lengths once.
func (ix *Index) ApplyBatches(seq uint64, deletes []uint64, adds []Doc, size int) (err error) {
	defer recoverCorrupt(fmt.Sprintf("apply seq %d", seq), &err)
	ix.applyMu.Lock()
	defer ix.applyMu.Unlock()
	if err := ix.checkApply(seq); err != nil {
		return err
	}
	stats := ix.currentStats()
	var (
		wg       sync.WaitGroup
		inFlight = make(chan struct{}, batchesInFlight)
		mu       sync.Mutex
		failed   error
	)
	size = evenBatches(len(adds), size)
	next := ix.an.analyze(adds[:min(size, len(adds))])
	for lo := 0; lo < len(adds); lo += size {
		batch, streams := adds[lo:min(lo+size, len(adds))], next
		stats = stats.add(streams)
		b := ix.bleve.NewBatch()
		if err := ix.addDocs(b, seq, batch, streams); err != nil {
			wg.Wait()
			return err
		}
		inFlight <- struct{}{}
		mu.Lock()
		stop := failed != nil
		mu.Unlock()
		if stop { // a batch failed: the write fails, so do not go on
			<-inFlight
			break
		}
		wg.Go(func() {
			defer func() { <-inFlight }()
			err := ix.batch(b, seq)
			mu.Lock()
			failed = cmp.Or(failed, err)
			mu.Unlock()
		})
		if hi := lo + size; hi < len(adds) {
			next = ix.an.analyze(adds[hi:min(hi+size, len(adds))])
		}
	}
	wg.Wait()
	if failed != nil {
		return failed
	}
	added := make(map[uint64]bool, len(adds))
	for i := range adds {
		added[adds[i].Ord] = true
	}
	b := ix.bleve.NewBatch()
	for _, ord := range deletes {
		if !added[ord] {
			b.Delete(encodeOrd(ord))
		}
	}
	return ix.commit(b, seq, stats)
}

// batchesInFlight is how many batches ApplyBatches has scorch write at
// once: one segment build a core.
const batchesInFlight = 2

// evenBatches returns the batch size that cuts n documents into equal
// batches of at most size, as many as size requires but a multiple of
// batchesInFlight when there are several, so that the batches in flight
// finish together rather than one going on alone: ingest's 2,048 chunks
// go as two batches of 1,024, not 2,000 and then 48.
func evenBatches(n, size int) int {
	size = max(size, 1)
	batches := (n + size - 1) / size
	if batches <= 1 {
		return size
	}
	batches = (batches + batchesInFlight - 1) / batchesInFlight * batchesInFlight
	return (n + batches - 1) / batches
}

// checkApply refuses a write to a read-only index, or one at a sequence
// below the index's.
func (ix *Index) checkApply(seq uint64) error {
	if ix.readOnly {
		return fmt.Errorf("bm25: %w (the bm25 index)", store.ErrReadOnly)
	}
	cur, err := ix.Seq()
	if err != nil {
		return err
	}
	if seq < cur {
		return fmt.Errorf("bm25: apply seq %d over %d: %w", seq, cur, ErrStaleSeq)
	}
	return nil
}

// addDocs puts adds, analysed into streams, in b.
func (ix *Index) addDocs(b *bleve.Batch, seq uint64, adds []Doc, streams []analysis.TokenStream) error {
	for i := range adds {
		if err := b.IndexAdvanced(ix.an.toDocument(&adds[i], streams[i])); err != nil {
			return fmt.Errorf("bm25: apply seq %d: ord %d: %w", seq, adds[i].Ord, err)
		}
	}
	return nil
}

// commit records seq and stats in b, writes it, and makes stats the
// index's.
func (ix *Index) commit(b *bleve.Batch, seq uint64, stats lengthStats) error {
	var val [8]byte
	binary.BigEndian.PutUint64(val[:], seq)
	b.SetInternal([]byte(seqKey), val[:])
	b.SetInternal([]byte(statsKey), stats.encode())
	if err := ix.batch(b, seq); err != nil {
		return err
	}
	ix.statsMu.Lock()
	ix.stats = stats
	ix.statsMu.Unlock()
	return nil
}

// batch writes b, turning a bleve panic into ErrCorrupt (it may run on a
// goroutine of its own).
func (ix *Index) batch(b *bleve.Batch, seq uint64) (err error) {
	defer recoverCorrupt(fmt.Sprintf("apply seq %d", seq), &err)
	if err := ix.bleve.Batch(b); err != nil {
		return fmt.Errorf("bm25: apply seq %d: %w", seq, err)
	}
	return nil
}

func (ix *Index) currentStats() lengthStats {
	ix.statsMu.Lock()
	defer ix.statsMu.Unlock()
	return ix.stats
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
