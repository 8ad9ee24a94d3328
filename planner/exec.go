package planner

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/viterin/vek/vek32"

	"github.com/medkb/medkb/dsl"
	"github.com/medkb/medkb/graph"
	"github.com/medkb/medkb/index/bm25"
	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/index/vector"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/clinical"
	"github.com/medkb/medkb/internal/gate"
	"github.com/medkb/medkb/store"
)

// Env is what a plan executes against: one generation of a store with its
// derived indexes, and the models that were used to build them.
type Env struct {
	Store   *store.Store
	BM25    *bm25.Index
	Vectors *vector.Index
	// Backend serves the retrieval arms; nil means the embedded one,
	// BM25 and Vectors (see Backend).
	Backend Backend
	// Graph returns the store's knowledge graph, nil when it has none,
	// and how it was opened (for EXPLAIN ANALYZE). It is called only for
	// statements with EXPAND, so a store's graph is opened on first use
	// rather than at open; it returns ctx's error when ctx ends first.
	Graph    func(ctx context.Context) (*graph.Graph, string, error)
	Embedder embed.Embedder
	Count    func(string) int // the tokenizer that costed the chunks
	// VectorWeight is the vector arm's weight in RRF (BM25 weighs 1);
	// zero means 1. See embed.FusionWeight.
	VectorWeight float64
	// Reranker serves RERANK; nil fails a statement with RERANK
	// (ErrNoReranker) unless it is only explained.
	Reranker Reranker
	Clock    func() time.Time // nil means time.Now
}

// maxFetch bounds what one arm retrieves, over-fetching included.
const maxFetch = 10000

// Compile parses src, binds its named parameters to args (nil when it
// has none), checks and plans it against env's graph and models.
// Opening the graph is the only part that can take long; ctx bounds it
// (a *StageError).
func Compile(ctx context.Context, src string, args dsl.Args, env *Env) (*Plan, error) {
	return compile(ctx, src, args, env, startClock())
}

func compile(ctx context.Context, src string, args dsl.Args, env *Env, clk clock) (*Plan, error) {
	st, err := dsl.Parse(src)
	if err != nil {
		return nil, err
	}
	if err := st.Bind(args); err != nil {
		return nil, err
	}
	q, err := dsl.Check(st)
	if err != nil {
		return nil, err
	}
	var g *graph.Graph
	note := ""
	if q.Expand != nil || q.Gate != nil || q.Fuse.Method == dsl.FuseDocVote {
		if g, note, err = env.Graph(ctx); err != nil {
			return nil, clk.check(ctx, StageGraph, err)
		}
	}
	scan := dsl.ScanF32
	if env.Vectors != nil && env.Vectors.DefaultScan() == vector.ScanInt8 {
		scan = dsl.ScanInt8
	}
	return Build(q, Binding{Graph: g, GraphNote: note, VectorWeight: env.VectorWeight, VectorScan: scan,
		Backend: env.backend().Name(), PushesMeta: env.backend().PushesMeta()})
}

// Run compiles src with args and executes it. EXPLAIN returns the plan without running
// it; EXPLAIN ANALYZE runs it and reports per operator. When ctx ends,
// Run returns a *StageError that names the stage it stopped in, within
// a few milliseconds of the end in every stage that loops (see
// StageError and the package doc, "Time").
func Run(ctx context.Context, env *Env, src string, args dsl.Args) (*Result, error) {
	clk := startClock()
	p, err := compile(ctx, src, args, env, clk)
	if err != nil {
		return nil, err
	}
	if p.Query.Explain && !p.Query.Analyze {
		return &Result{Mode: "explain", Query: p.Query.Text, Plan: p.Explain(nil), Items: []Item{}, Dropped: []Dropped{}, Sources: []Source{},
			Expansion: Expansion{Reason: "not run (EXPLAIN without ANALYZE)", Anchors: []string{}, Paths: []Path{}}}, nil
	}
	return p.execute(ctx, env, clk)
}

// candidate is one fused chunk (or graph path) on its way to the result.
type candidate struct {
	Fused
	chunk *base.Chunk
	slot  base.Slot
	boost float64
	path  *Path
	named bool // a path from an anchor the query text names
	// The relevance stage's scores (judge, score): coverage is the share
	// of the topic its text holds, conceptCoverage that of the topic's
	// concepts by their mentions, evidence the strongest signal that it
	// was found for the topic, rel its relevance for PACK. context marks
	// the rest of a patient's record, which PACK uses for room left over.
	coverage, conceptCoverage, evidence, rel float64
	context                                  bool
	// rerank is the reranker's score, nil when RERANK did not score it.
	rerank *float64
	// vec is the chunk's vector, read by loadVectors for Dedup and Pack
	// to share.
	vec []float32
}

// id is the candidate's item ID: "DOC#INDEX", or "path:N" for a graph
// path (no fmt: every candidate's is made, most for a drop).
func (c *candidate) id() string {
	if c.path != nil {
		return "path:" + strconv.FormatUint(c.Ord, 10)
	}
	return c.chunk.Doc + "#" + strconv.Itoa(c.chunk.Index)
}

// tier is the candidate's evidence tier: its chunk's, or pathTier.
func (c *candidate) tier() base.Tier {
	if c.path != nil {
		return pathTier
	}
	return c.chunk.Tier
}

// day is the candidate's date: its document's, none for a graph path.
func (c *candidate) day() base.Day {
	if c.path != nil {
		return base.NoDay
	}
	return c.slot.Time
}

// text is the candidate's full text (state A).
func (c *candidate) text() string {
	if c.path != nil {
		return c.path.Text
	}
	return c.chunk.Text
}

// execution holds the state of one run.
type execution struct {
	p       *Plan
	env     *Env
	clock   clock
	qvec    []float32
	reports []OpReport
	res     *Result
	quota   packedQuota // PACK's, for LIMIT to count again
	// outliers are the candidates Dedup flagged, with the reason.
	outliers map[*candidate]string
	// gateRead is the query's sentences labelled (readGate), once read.
	gateRead *gate.Report
	// topic and vecs are read beside other work (see ahead).
	topic *ahead[reading]
	vecs  *ahead[map[uint64][]float32]
}

// reading is the query text read as a clinical question, and its topic
// weighed in the store.
type reading struct {
	question clinical.Question
	topic    topic
}

// ahead is work started on another goroutine before its result is
// needed: the query is read as a question and its topic weighed
// (readTopic), which needs only the query and the BM25 index's term
// statistics, while the arms retrieve; the fused hits' vectors, which
// Dedup and Pack need, are read while their chunks load and the
// relevance stage judges them. Each took 0.15-0.3 ms of a 3 ms query on
// one core while the other waited.
type ahead[T any] struct {
	done chan struct{}
	v    T
	err  error
}

// goAhead runs fn on a new goroutine.
func goAhead[T any](fn func() (T, error)) *ahead[T] {
	a := &ahead[T]{done: make(chan struct{})}
	go func() {
		defer close(a.done)
		a.v, a.err = fn()
	}()
	return a
}

// wait returns fn's result once it is there.
func (a *ahead[T]) wait() (T, error) {
	<-a.done
	return a.v, a.err
}

// settle waits for the work started ahead, which a run that fails before
// using it leaves behind: a query returns only once nothing of it runs,
// so that closing the DB or dropping an index after it is safe.
func (x *execution) settle() {
	if x.topic != nil {
		<-x.topic.done
	}
	if x.vecs != nil {
		<-x.vecs.done
	}
}

func (x *execution) report(op string, in, out int, start time.Time, note string) {
	x.reportTook(op, in, out, time.Since(start), note)
}

// reportTook is report for an operator that took d.
func (x *execution) reportTook(op string, in, out int, d time.Duration, note string) {
	x.reports = append(x.reports, OpReport{Op: op, RowsIn: in, RowsOut: out,
		Millis: float64(d.Microseconds()) / 1000, Note: note})
}

// Execute runs the plan; see Run for what ctx does.
func (p *Plan) Execute(ctx context.Context, env *Env) (*Result, error) {
	return p.execute(ctx, env, startClock())
}

func (p *Plan) execute(ctx context.Context, env *Env, clk clock) (*Result, error) {
	if p.Rerank != nil && env.Reranker == nil {
		return nil, ErrNoReranker
	}
	x := &execution{p: p, env: env, clock: clk, res: &Result{Query: p.Query.Text, Items: []Item{}, Dropped: []Dropped{}, Sources: []Source{},
		Expansion: Expansion{Anchors: []string{}, Paths: []Path{}}, Relevance: Relevance{Terms: []string{}}}}
	defer x.settle()
	if p.Gate != nil {
		skip, err := x.runGate(ctx)
		if err = clk.check(ctx, StageGate, err); err != nil {
			return nil, err
		}
		if skip {
			x.skipped()
			return x.finish(), nil
		}
	}
	x.topic = goAhead(func() (reading, error) {
		q := clinical.ReadQuestion(p.Query.Text, p.onePatient())
		t, err := x.readTopic(ctx, q)
		return reading{q, t}, err
	})
	if p.Pack != nil || hasArm(p, "vector") {
		vs, err := env.Embedder.Embed(ctx, []string{p.Query.Text})
		if err != nil {
			return nil, clk.check(ctx, StageEmbedding, fmt.Errorf("medkb: embedding the query: %w", err))
		}
		x.qvec = vs[0]
	}
	fused, err := x.retrieveAndFuse(ctx)
	if err != nil {
		return nil, err
	}
	if p.Pack != nil {
		ords := fusedOrds(fused)
		x.vecs = goAhead(func() (map[uint64][]float32, error) {
			vecs, err := x.env.Vectors.Vectors(ords)
			if err != nil {
				return nil, err
			}
			read := make(map[uint64][]float32, len(ords))
			for i, ord := range ords {
				read[ord] = vecs[i]
			}
			return read, nil
		})
	}
	cands, err := x.load(fused)
	if err = clk.check(ctx, StageLoading, err); err != nil {
		return nil, err
	}
	if cands, err = x.expand(ctx, cands); err != nil {
		return nil, clk.check(ctx, StageExpansion, err)
	}
	cands, err = x.judge(ctx, cands)
	if err = clk.check(ctx, StageRelevance, err); err != nil {
		return nil, err
	}
	if p.Rerank != nil {
		if cands, err = x.rerank(ctx, cands); err != nil {
			return nil, clk.check(ctx, StageRerank, err)
		}
	}
	if p.Pack != nil {
		kept, err := x.dedup(cands)
		if err == nil {
			err = x.pack(ctx, kept)
		}
		if err := clk.check(ctx, StagePacking, err); err != nil {
			return nil, err
		}
	} else {
		x.top(cands)
	}
	x.limit()
	if err := clk.check(ctx, StageAssembling, x.assemble(ctx)); err != nil {
		return nil, err
	}
	return x.finish(), nil
}

// finish sets the result's mode and plan.
func (x *execution) finish() *Result {
	x.res.Mode = "run"
	if x.p.Query.Analyze {
		x.res.Mode = "analyze"
		x.res.Analyze = x.reports
	}
	x.res.Plan = x.p.Explain(x.res.Analyze)
	return x.res
}

func hasArm(p *Plan, arm string) bool {
	for _, a := range p.Arms {
		if a.Arm == arm {
			return true
		}
	}
	return false
}

// retrieveAndFuse runs the arms concurrently and fuses them.
func (x *execution) retrieveAndFuse(ctx context.Context) ([]Fused, error) {
	full, err := x.runArms(ctx, x.p.Query.Text, x.qvec, 0, true)
	if err = x.clock.check(ctx, StageRetrieval, err); err != nil { // the vector scan does not look at ctx
		return nil, err
	}
	start := time.Now()
	var fused []Fused
	note := ""
	switch x.p.Fuse.Method {
	case dsl.FuseWeighted:
		alpha := x.p.Fuse.Alpha
		if x.p.Fuse.AlphaAuto {
			if alpha, note, err = x.autoAlpha(ctx); err != nil {
				return nil, x.clock.check(ctx, StageFusion, err)
			}
		}
		fused = fuseWeighted(full, alpha)
	case dsl.FuseDocVote:
		if fused, note, err = x.docVote(ctx, full); err != nil {
			return nil, x.clock.check(ctx, StageFusion, err)
		}
	default:
		fused = fuseRRF(full, x.p.Fuse.K, x.p.Fuse.VectorWeight)
	}
	x.report(opFuse, len(full.bm25)+len(full.vector), len(fused), start, note)
	return fused, x.clock.check(ctx, StageFusion, nil)
}

// runArms retrieves with every arm of the plan, concurrently; k overrides
// the arms' k when positive. With report set, each arm reports to EXPLAIN
// ANALYZE.
func (x *execution) runArms(ctx context.Context, q string, qvec []float32, k int, report bool) (arms, error) {
	hits := make([][]Hit, len(x.p.Arms))
	errs := make([]error, len(x.p.Arms))
	took := make([]time.Duration, len(x.p.Arms)) // each arm's own time, not the wait for the slower

	var wg sync.WaitGroup
	for i, a := range x.p.Arms {
		if k > 0 {
			a.K = k
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			if a.Arm == "bm25" {
				hits[i], errs[i] = x.env.backend().SearchBM25(ctx, q, a)
			} else {
				hits[i], errs[i] = x.env.backend().SearchVector(ctx, qvec, a)
			}
			took[i] = time.Since(start)
		}()
	}
	wg.Wait()
	var out arms
	for i, a := range x.p.Arms {
		if errs[i] != nil {
			return out, errs[i]
		}
		if a.Arm == "bm25" {
			out.bm25 = hits[i]
		} else {
			out.vector = hits[i]
		}
		if report {
			x.reportTook("Retrieve "+a.Arm, 0, len(hits[i]), took[i], "")
		}
	}
	return out, nil
}

// fusedOrds returns the fused hits' ordinals, in order.
func fusedOrds(fused []Fused) []uint64 {
	ords := make([]uint64, len(fused))
	for i, f := range fused {
		ords[i] = f.Ord
	}
	return ords
}

// load reads the chunk records of the fused candidates, in fused order,
// skipping chunks deleted since retrieval.
func (x *execution) load(fused []Fused) ([]*candidate, error) {
	chunks, err := x.env.Store.Chunks(fusedOrds(fused))
	if err != nil {
		return nil, err
	}
	out := make([]*candidate, 0, len(fused))
	for i, c := range chunks {
		if c == nil {
			continue
		}
		slot, _ := x.env.Vectors.Slot(c.Ord)
		out = append(out, &candidate{Fused: fused[i], chunk: c, slot: slot})
	}
	return out, nil
}

// loadVectors sets the vec of the chunk candidates that have none: those
// the fused hits' read (x.vecs) holds, then the others (expansion may
// add chunks) in one call: an int8 index reads vectors from the store
// file, where one sorted batch costs much less than a read each.
func (x *execution) loadVectors(cands []*candidate) error {
	var read map[uint64][]float32
	if x.vecs != nil {
		var err error
		if read, err = x.vecs.wait(); err != nil {
			return err
		}
	}
	var ords []uint64
	var need []*candidate
	for _, c := range cands {
		if c.path != nil || c.vec != nil {
			continue
		}
		if v, ok := read[c.chunk.Ord]; ok {
			c.vec = v
			continue
		}
		ords, need = append(ords, c.chunk.Ord), append(need, c)
	}
	if len(ords) == 0 {
		return nil
	}
	vecs, err := x.env.Vectors.Vectors(ords)
	if err != nil {
		return err
	}
	for i, c := range need {
		c.vec = vecs[i]
	}
	return nil
}

// sim is the cosine of the query and a normalised vector (0 without one).
func (x *execution) sim(v []float32) float64 {
	if len(v) == 0 || len(v) != len(x.qvec) {
		return 0
	}
	return float64(vek32.Dot(x.qvec, v))
}

// sortCandidates orders by fused score plus graph boost, then ordinal.
func sortCandidates(cs []*candidate) {
	sort.SliceStable(cs, func(i, j int) bool {
		si, sj := cs[i].Score+cs[i].boost, cs[j].Score+cs[j].boost
		if si != sj {
			return si > sj
		}
		return cs[i].Ord < cs[j].Ord
	})
}
