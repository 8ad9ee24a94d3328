package graph

import (
	"cmp"
	"slices"
)

// adjacency is one direction of one relation in compressed sparse row
// form: the neighbours of node n are targets[offsets[n-lo]:offsets[n-lo+1]],
// sorted by id and without repeats. Only the id range [lo, hi] of nodes
// that have neighbours is covered, so a relation between two small types
// costs little even in a large graph.
type adjacency struct {
	lo      NodeID
	offsets []uint32
	targets []NodeID
	weights []float32 // parallel to targets; nil when no edge has a weight
}

// neighbours returns n's targets and their weights (nil weights when the
// relation has none).
func (a *adjacency) neighbours(n NodeID) ([]NodeID, []float32) {
	if n < a.lo || int(n-a.lo) >= len(a.offsets)-1 {
		return nil, nil
	}
	i, j := a.offsets[n-a.lo], a.offsets[n-a.lo+1]
	if a.weights == nil {
		return a.targets[i:j], nil
	}
	return a.targets[i:j], a.weights[i:j]
}

// degree returns the number of n's neighbours.
func (a *adjacency) degree(n NodeID) int {
	if n < a.lo || int(n-a.lo) >= len(a.offsets)-1 {
		return 0
	}
	return int(a.offsets[n-a.lo+1] - a.offsets[n-a.lo])
}

func (a *adjacency) bytes() int64 {
	return 4 * int64(len(a.offsets)+len(a.targets)+len(a.weights))
}

// edge is one triple while a graph is built.
type edge struct {
	from, to NodeID
	w        float32
}

// buildAdjacency groups edges (in input order) by their from node. Repeats
// of a (from, to) pair keep the first one's weight.
func buildAdjacency(edges []edge) adjacency {
	lo, hi := edges[0].from, edges[0].from
	for _, e := range edges {
		lo, hi = min(lo, e.from), max(hi, e.from)
	}
	offsets := make([]uint32, int(hi-lo)+2)
	for _, e := range edges {
		offsets[e.from-lo+1]++
	}
	for i := 1; i < len(offsets); i++ {
		offsets[i] += offsets[i-1]
	}
	grouped := make([]edge, len(edges))
	next := slices.Clone(offsets[:len(offsets)-1])
	for _, e := range edges {
		grouped[next[e.from-lo]] = e
		next[e.from-lo]++
	}
	a := adjacency{lo: lo, offsets: offsets, targets: make([]NodeID, 0, len(edges))}
	weighted := slices.ContainsFunc(edges, func(e edge) bool { return e.w != 0 })
	if weighted {
		a.weights = make([]float32, 0, len(edges))
	}
	start := uint32(0)
	for i := range len(offsets) - 1 {
		run := grouped[start:offsets[i+1]]
		start = offsets[i+1]
		slices.SortStableFunc(run, func(x, y edge) int { return cmp.Compare(x.to, y.to) })
		for k, e := range run {
			if k > 0 && run[k-1].to == e.to {
				continue
			}
			a.targets = append(a.targets, e.to)
			if weighted {
				a.weights = append(a.weights, e.w)
			}
		}
		offsets[i+1] = uint32(len(a.targets))
	}
	return a
}

// reversed returns the adjacency of the opposite direction. Because a's
// lists are visited in from-order, each reversed list comes out sorted.
func (a *adjacency) reversed() adjacency {
	edges := make([]edge, 0, len(a.targets))
	for i := range len(a.offsets) - 1 {
		from := a.lo + NodeID(i)
		for k := a.offsets[i]; k < a.offsets[i+1]; k++ {
			e := edge{from: a.targets[k], to: from}
			if a.weights != nil {
				e.w = a.weights[k]
			}
			edges = append(edges, e)
		}
	}
	return buildAdjacency(edges)
}
