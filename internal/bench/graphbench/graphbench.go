package graphbench

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/internal/base"
)

// Options tunes Run. Zero fields take the defaults.
type Options struct {
	Anchors int     // random compounds for the latency test; 0 means 100
	Limit   int     // LIMIT of the latency and recovery tests; 0 means 50
	HoldOut float64 // share of treats edges held out for recovery; 0 means 0.2
	Seed    uint64  // random seed; 0 means 1
}

// Result is what `medkb bench graph` reports.
type Result struct {
	Dir              string      `json:"dir"`
	EntitiesRead     int         `json:"entities_read"` // node rows, over all node files
	TriplesRead      int         `json:"triples_read"`  // including the mirrored undirected edges
	LoadSeconds      float64     `json:"load_seconds"`
	BuildSeconds     float64     `json:"build_seconds"`
	TriplesPerSecond float64     `json:"triples_per_second"` // TriplesRead / (load + build)
	Graph            graph.Stats `json:"graph"`
	LinkBuildSeconds float64     `json:"link_build_seconds"` // linkers of every type
	Latency          Latency     `json:"latency"`
	Recovery         Recovery    `json:"recovery"`
	Options          Options     `json:"options"`
}

// Latency times Expand from single random anchors.
type Latency struct {
	Metapath  string  `json:"metapath"`
	Anchors   int     `json:"anchors"`
	Limit     int     `json:"limit"`
	P50Micros float64 `json:"p50_us"`
	P99Micros float64 `json:"p99_us"`
	MaxMicros float64 `json:"max_us"`
	MeanPaths float64 `json:"mean_paths"`
}

// Recovery reports how often metapaths from a compound reach a
// disease it treats when that treats edge is held out of the graph.
type Recovery struct {
	TreatsEdges int           `json:"treats_edges"`
	HeldOut     int           `json:"held_out"`
	Rows        []RecoveryRow `json:"rows"`
}

// RecoveryRow is one metapath's (or the union's) recovery.
type RecoveryRow struct {
	Metapath string `json:"metapath"`
	// Hits within the first Limit paths and among all paths.
	HitsLimited   int     `json:"hits_limited"`
	HitsUnlimited int     `json:"hits_unlimited"`
	RateLimited   float64 `json:"rate_limited"`
	RateUnlimited float64 `json:"rate_unlimited"`
	// MeanReached is the mean number of distinct diseases all paths
	// reach: a hit rate means little if every disease is reached.
	MeanReached float64 `json:"mean_reached"`
}

// The metapaths of the benchmark.
const (
	benchCbGaD = "Compound -binds-> Gene <-associates- Disease"
	benchCrCtD = "Compound -resembles-> Compound -treats-> Disease"
)

// Run loads Hetionet from dir (see graph.LoadHetionet), builds the graph and
// measures: load and build time; building every type's linker; latency
// of CbGaD expansion from random compounds that bind some gene; and
// recovery of held-out Compound-treats-Disease edges by CbGaD and CrCtD.
// Holding out every treats edge would leave CrCtD nothing to walk, so a
// random share (HoldOut) is held out and the rest stays in the graph.
func Run(ctx context.Context, dir string, opts Options) (Result, error) {
	opts = opts.withDefaults()
	res := Result{Dir: dir, Options: opts}
	start := time.Now()
	ents, triples, err := graph.LoadHetionet(dir)
	if err != nil {
		return res, err
	}
	res.LoadSeconds = time.Since(start).Seconds()
	res.EntitiesRead, res.TriplesRead = len(ents), len(triples)
	start = time.Now()
	g := graph.Build(ents, triples)
	res.BuildSeconds = time.Since(start).Seconds()
	res.TriplesPerSecond = float64(len(triples)) / (res.LoadSeconds + res.BuildSeconds)
	res.Graph = g.Stats()

	start = time.Now()
	for _, t := range g.Types() {
		g.Link(t, t)
	}
	res.LinkBuildSeconds = time.Since(start).Seconds()

	rng := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))
	if res.Latency, err = benchLatency(ctx, g, rng, opts); err != nil {
		return res, err
	}
	res.Recovery, err = benchRecovery(ctx, ents, triples, rng, opts)
	return res, err
}

func (o Options) withDefaults() Options {
	if o.Anchors <= 0 {
		o.Anchors = 100
	}
	if o.Limit <= 0 {
		o.Limit = 50
	}
	if o.HoldOut <= 0 || o.HoldOut >= 1 {
		o.HoldOut = 0.2
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

func benchLatency(ctx context.Context, g *graph.Graph, rng *rand.Rand, opts Options) (Latency, error) {
	m, err := graph.ParseMetapath(benchCbGaD)
	if err != nil {
		return Latency{}, err
	}
	if err := g.CheckMetapath(m); err != nil {
		return Latency{}, fmt.Errorf("bench: %w", err)
	}
	var binders []graph.NodeID
	for id := range graph.NodeID(g.Stats().Entities) {
		if g.Node(id).Type == "Compound" && len(g.Neighbors(id, "binds", false)) > 0 {
			binders = append(binders, id)
		}
	}
	rng.Shuffle(len(binders), func(i, j int) { binders[i], binders[j] = binders[j], binders[i] })
	anchors := binders[:min(opts.Anchors, len(binders))]
	eo := graph.ExpandOptions{Limit: opts.Limit}
	for _, a := range anchors { // warm up
		g.Expand(ctx, []graph.NodeID{a}, m, eo)
	}
	times := make([]time.Duration, len(anchors))
	paths := 0
	for i, a := range anchors {
		start := time.Now()
		ps, _ := g.Expand(ctx, []graph.NodeID{a}, m, eo)
		times[i] = time.Since(start)
		paths += len(ps)
	}
	slices.Sort(times)
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	n := len(times)
	if n == 0 {
		return Latency{}, fmt.Errorf("bench: no compound binds a gene: %w", graph.ErrUnknownFormat)
	}
	return Latency{
		Metapath: m.String(), Anchors: n, Limit: opts.Limit,
		P50Micros: us(times[n/2]), P99Micros: us(times[min(n-1, n*99/100)]), MaxMicros: us(times[n-1]),
		MeanPaths: float64(paths) / float64(n),
	}, nil
}

func benchRecovery(ctx context.Context, ents []base.Entity, triples []base.Triple, rng *rand.Rand, opts Options) (Recovery, error) {
	var treats []int
	for i, t := range triples {
		if t.Relation == "treats" && t.HeadType == "Compound" && t.TailType == "Disease" {
			treats = append(treats, i)
		}
	}
	rng.Shuffle(len(treats), func(i, j int) { treats[i], treats[j] = treats[j], treats[i] })
	held := treats[:int(float64(len(treats))*opts.HoldOut+0.5)]
	skip := make(map[int]bool, len(held))
	for _, i := range held {
		skip[i] = true
	}
	train := make([]base.Triple, 0, len(triples)-len(held))
	for i, t := range triples {
		if !skip[i] {
			train = append(train, t)
		}
	}
	g := graph.Build(ents, train)
	res := Recovery{TreatsEdges: len(treats), HeldOut: len(held)}
	var mps []*graph.Metapath
	for _, text := range []string{benchCbGaD, benchCrCtD} {
		m, err := graph.ParseMetapath(text)
		if err != nil {
			return res, err
		}
		mps = append(mps, m)
		res.Rows = append(res.Rows, RecoveryRow{Metapath: m.String()})
	}
	res.Rows = append(res.Rows, RecoveryRow{Metapath: "either"})
	union := &res.Rows[len(mps)]
	for _, i := range held {
		c, okC := g.Lookup("Compound", triples[i].Head)
		d, okD := g.Lookup("Disease", triples[i].Tail)
		if !okC || !okD {
			return res, fmt.Errorf("bench: held-out edge %d names unknown entities", i)
		}
		reached := map[graph.NodeID]bool{}
		var hitLimited, hitAll bool
		for k, m := range mps {
			limited, _ := g.Expand(ctx, []graph.NodeID{c}, m, graph.ExpandOptions{Limit: opts.Limit})
			all, st := g.Expand(ctx, []graph.NodeID{c}, m, graph.ExpandOptions{Limit: 1 << 30, MaxWork: 1 << 26})
			if st.Truncated {
				return res, fmt.Errorf("bench: unlimited expansion from %s stopped early", triples[i].Head)
			}
			row := &res.Rows[k]
			if reaches(limited, d) {
				row.HitsLimited++
				hitLimited = true
			}
			if reaches(all, d) {
				row.HitsUnlimited++
				hitAll = true
			}
			e := ends(all)
			row.MeanReached += float64(len(e))
			maps.Copy(reached, e)
		}
		if hitLimited {
			union.HitsLimited++
		}
		if hitAll {
			union.HitsUnlimited++
		}
		union.MeanReached += float64(len(reached))
	}
	for k := range res.Rows {
		res.Rows[k].finish(len(held))
	}
	return res, nil
}

// finish turns the row's sums over n held-out edges into rates and means.
func (r *RecoveryRow) finish(n int) {
	if n > 0 {
		r.RateLimited = float64(r.HitsLimited) / float64(n)
		r.RateUnlimited = float64(r.HitsUnlimited) / float64(n)
		r.MeanReached /= float64(n)
	}
}

// reaches reports whether some path ends at d.
func reaches(paths []graph.Path, d graph.NodeID) bool {
	return slices.ContainsFunc(paths, func(p graph.Path) bool { return p.Nodes[len(p.Nodes)-1].ID == d })
}

// ends returns the distinct end nodes of paths.
func ends(paths []graph.Path) map[graph.NodeID]bool {
	out := map[graph.NodeID]bool{}
	for _, p := range paths {
		out[p.Nodes[len(p.Nodes)-1].ID] = true
	}
	return out
}

// String formats r for people.
func (r Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "hetionet %s\n", r.Dir)
	fmt.Fprintf(&b, "load     %d node rows, %d triples read in %.2fs; build %.2fs; %.0f triples/s\n",
		r.EntitiesRead, r.TriplesRead, r.LoadSeconds, r.BuildSeconds, r.TriplesPerSecond)
	fmt.Fprintf(&b, "graph    %d entities, %d triples (%d duplicates), %d types, %d relations, adjacency %.1f MB\n",
		r.Graph.Entities, r.Graph.Triples, r.Graph.Duplicates, r.Graph.Types, r.Graph.Relations, float64(r.Graph.AdjacencyBytes)/1e6)
	fmt.Fprintf(&b, "linkers  all types built in %.3fs\n", r.LinkBuildSeconds)
	l := r.Latency
	fmt.Fprintf(&b, "expand   %s LIMIT %d from %d anchors: p50 %.0fµs p99 %.0fµs max %.0fµs, %.1f paths\n",
		l.Metapath, l.Limit, l.Anchors, l.P50Micros, l.P99Micros, l.MaxMicros, l.MeanPaths)
	fmt.Fprintf(&b, "recovery %d of %d treats edges held out\n", r.Recovery.HeldOut, r.Recovery.TreatsEdges)
	for _, row := range r.Recovery.Rows {
		fmt.Fprintf(&b, "         %-50s LIMIT %d: %5.1f%%  unlimited: %5.1f%%  (mean diseases reached %.1f)\n",
			row.Metapath, l.Limit, 100*row.RateLimited, 100*row.RateUnlimited, row.MeanReached)
	}
	return b.String()
}
