package graph

import "cmp"

// The expansion queue is a binary heap of arena indices ordered by better:
// higher score first, then smaller node-id sequence, then smaller
// (relation, direction) sequence. Extending a path never makes it better
// (scores only shrink, and a sequence sorts after its prefixes), which is
// what lets Expand stop at the first Limit complete paths.

func (x *expansion) push(p partial) {
	x.arena = append(x.arena, p)
	x.queue = append(x.queue, int32(len(x.arena)-1))
	x.stats.Queued++
	for c := len(x.queue) - 1; c > 0; {
		parent := (c - 1) / 2
		if !x.better(x.queue[c], x.queue[parent]) {
			break
		}
		x.queue[c], x.queue[parent] = x.queue[parent], x.queue[c]
		c = parent
	}
}

func (x *expansion) pop() int32 {
	top := x.queue[0]
	last := len(x.queue) - 1
	x.queue[0] = x.queue[last]
	x.queue = x.queue[:last]
	for c := 0; ; {
		best, l, r := c, 2*c+1, 2*c+2
		if l < last && x.better(x.queue[l], x.queue[best]) {
			best = l
		}
		if r < last && x.better(x.queue[r], x.queue[best]) {
			best = r
		}
		if best == c {
			break
		}
		x.queue[c], x.queue[best] = x.queue[best], x.queue[c]
		c = best
	}
	return top
}

// better orders two partial paths.
func (x *expansion) better(i, j int32) bool {
	a, b := &x.arena[i], &x.arena[j]
	if a.score != b.score {
		return a.score > b.score
	}
	return x.compareSeq(i, j) < 0
}

// compareSeq compares the node-id sequences of two partial paths, then
// their step sequences.
func (x *expansion) compareSeq(i, j int32) int {
	var sa, sb [MaxSteps*MaxRepeat + 1]int32
	na, nb := x.chain(i, sa[:]), x.chain(j, sb[:])
	for k := 0; k < len(na) && k < len(nb); k++ {
		if c := cmp.Compare(x.arena[na[k]].node, x.arena[nb[k]].node); c != 0 {
			return c
		}
	}
	if c := cmp.Compare(len(na), len(nb)); c != 0 {
		return c
	}
	for k := 1; k < len(na); k++ {
		if c := cmp.Compare(x.edgeKey(na[k]), x.edgeKey(nb[k])); c != 0 {
			return c
		}
	}
	return 0
}

// chain fills buf with the arena indices of the path ending at i, anchor
// first, and returns that part of buf.
func (x *expansion) chain(i int32, buf []int32) []int32 {
	n := int(x.arena[i].depth) + 1
	for k := n - 1; k >= 0; k-- {
		buf[k] = i
		i = x.arena[i].parent
	}
	return buf[:n]
}

// edgeKey orders the edge that ends at arena[i] by relation and direction.
func (x *expansion) edgeKey(i int32) int {
	s := x.plan.steps[x.arena[i].step]
	k := 2 * s.relIndex
	if s.reverse {
		k++
	}
	return k
}
