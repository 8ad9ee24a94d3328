package planner

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/medkb/medkb/internal/dedup"
)

// dedup drops the near-duplicates among the candidates that reach PACK,
// so that copy-forward text (one troponin line in three notes) is packed
// once, and flags the outliers among those left (x.outliers). A dropped
// copy is reported as "duplicate" with the kept copy and the test that
// matched. Candidates are compared within one tier, one patient and one
// study design, and only when they state the same values; see package
// internal/dedup for the tests, the thresholds and which copy is kept.
// Context (the rest of a record, packed only into room left) comes after
// the relevant candidates and scores 0 there, so a relevant copy is never
// dropped for a context one, while a context copy of relevant evidence is
// dropped (it would repeat it in the room left).
func (x *execution) dedup(cands []*candidate) ([]*candidate, error) {
	start := time.Now()
	if err := x.loadVectors(cands); err != nil {
		return nil, err
	}
	order := make([]*candidate, 0, len(cands)) // relevant first, then context
	for _, c := range cands {
		if !c.context {
			order = append(order, c)
		}
	}
	for _, c := range cands {
		if c.context {
			order = append(order, c)
		}
	}
	es := make([]dedup.Entry, len(order))
	for i, c := range order {
		es[i] = dedup.Entry{Text: c.text(), Score: c.Score + c.boost, Day: c.day(), Group: c.tier().String() + " path", Path: c.path != nil}
		if c.context {
			es[i].Score = 0
		}
		if c.path == nil {
			es[i].Vec = c.vec
			// Two publications of different study designs are two
			// studies, whatever their words: reliability weighs each.
			es[i].Group = c.tier().String() + " patient " + strconv.FormatUint(uint64(c.slot.Patient), 10) +
				" design " + strconv.FormatUint(uint64(c.slot.Evidence), 10)
		}
	}
	dropped := map[*candidate]bool{}
	for i, m := range dedup.Find(es) {
		if m == nil {
			continue
		}
		dropped[order[i]] = true
		x.res.Dropped = append(x.res.Dropped, Dropped{ID: order[i].id(), Reason: "duplicate",
			Detail: fmt.Sprintf("%s, of %s (%s)", order[i].tier(), order[m.Kept].id(), m)})
	}
	// The kept candidates go on in the order they came (fifo packs in
	// it); only the comparison above put the relevant first.
	var kept []*candidate
	var vecs [][]float32
	for _, c := range cands {
		if !dropped[c] {
			kept = append(kept, c)
			vecs = append(vecs, c.vec)
		}
	}
	drops := len(dropped)
	x.outliers = map[*candidate]string{}
	var flagged []string
	for _, o := range dedup.Outliers(vecs) {
		x.outliers[kept[o.Index]] = o.String()
		flagged = append(flagged, kept[o.Index].id())
	}
	note := fmt.Sprintf("dropped %d duplicates; %d outliers flagged", drops, len(flagged))
	if len(flagged) > 0 {
		note += " (" + strings.Join(flagged, ", ") + ")"
	}
	x.report(opDedup, len(cands), len(kept), start, note)
	return kept, nil
}

// dedupExplain is the Dedup operator's EXPLAIN line.
func dedupExplain() string {
	return fmt.Sprintf("Dedup cosine>=%g or shingles>=%g (word 3-shingle Jaccard) or contained (whole in one at most %gx as long that adds nothing clinical) within tier+patient+design+values, keep best-ranked (newest within %g%%); flag outliers at modified z>%g",
		dedup.MinCosine, dedup.MinShingles, dedup.MaxGrowth, dedup.TieRatio*100, dedup.MaxZ)
}
