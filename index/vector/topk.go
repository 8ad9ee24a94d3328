package vector

import "math"

// topK keeps the best k hits seen so far in a min-heap whose root is the
// worst kept hit, so a candidate is tested against one value.
type topK struct {
	k    int
	heap []Hit
}

func (t *topK) reset(k int) {
	t.k = k
	t.heap = t.heap[:0]
}

// worse reports whether a ranks below b: lower score, or equal score and
// larger ordinal.
func worse(a, b Hit) bool {
	return a.Score < b.Score || (a.Score == b.Score && a.Ord > b.Ord)
}

// admits reports whether a hit with this score and ordinal would be kept.
func (t *topK) admits(score float32, ord uint64) bool {
	return len(t.heap) < t.k || worse(t.heap[0], Hit{Ord: ord, Score: score})
}

// floor is the lowest score admits can accept: the worst kept hit's
// once k are kept (admitted on a tie only by a smaller ordinal), -Inf
// before. A scan tests each row's score against it and calls admits only
// for the few that reach it.
func (t *topK) floor() float32 {
	if len(t.heap) < t.k {
		return float32(math.Inf(-1))
	}
	return t.heap[0].Score
}

// push keeps h if it ranks among the best k.
func (t *topK) push(h Hit) {
	if len(t.heap) < t.k {
		t.heap = append(t.heap, h)
		t.up(len(t.heap) - 1)
		return
	}
	if !worse(t.heap[0], h) {
		return
	}
	t.heap[0] = h
	t.down(0)
}

func (t *topK) up(i int) {
	h := t.heap
	for i > 0 {
		parent := (i - 1) / 2
		if !worse(h[i], h[parent]) {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func (t *topK) down(i int) {
	h := t.heap
	for {
		least := i
		if l := 2*i + 1; l < len(h) && worse(h[l], h[least]) {
			least = l
		}
		if r := 2*i + 2; r < len(h) && worse(h[r], h[least]) {
			least = r
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}
