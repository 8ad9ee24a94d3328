package packbench

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/medkb/medkb/index/embed"
	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/clinical"
	"github.com/medkb/medkb/internal/text"
	"github.com/medkb/medkb/planner/pack"
)

// Options says how cases become packing candidates.
type Options struct {
	// NoiseRatio is the number of noise segments added per signal
	// segment; 0 adds none.
	NoiseRatio int
	// Seed fixes the noise and the shuffle.
	Seed int64
	// GoldTiers packs segments with their gold tier when they have one,
	// instead of classifying them with clinical.Classify.
	GoldTiers bool
	// Embedder computes Sim; nil means embed.NewHash(384).
	Embedder embed.Embedder
	// Tokenizer costs the states; nil means text.NewTokenizer().
	Tokenizer text.Tokenizer
	// Duplicates adds 1 to 3 copies of signal segments to each case,
	// after the noise (AddDuplicates).
	Duplicates bool
	// Dedup drops near-duplicates before packing, as the planner does
	// (internal/dedup; see dedupCase).
	Dedup bool
}

// DefaultOptions is the paper's protocol: 1:12 noise, classified tiers.
func DefaultOptions() Options {
	return Options{NoiseRatio: DefaultNoiseRatio, Seed: 1}
}

// Suite is a set of cases turned into packing candidates once, so that
// every window, strategy and parameter setting reuses the embeddings and
// token counts.
type Suite struct {
	cases []prepared
	count func(block int, text string) int // pack.Params.Count: a block costs its text
}

type prepared struct {
	id       string
	now      base.Day
	cands    []pack.Candidate
	signal   []signalSeg
	question *question // nil when the case asks none
}

// signalSeg is a signal segment to account for after packing.
type signalSeg struct {
	cand   int       // index into cands
	copies []int     // its copies' (AddDuplicates), which survive for it
	keys   []string  // must all be in the packed state's text; folded (text.FoldKey)
	tier   base.Tier // gold, else classified: decides whether it counts for RRCE
}

// t1t2 reports whether the segment counts for RRCE.
func (sg *signalSeg) t1t2() bool { return sg.tier == base.T1 || sg.tier == base.T2 }

// Prepare adds noise to the cases and builds their candidates: tier,
// state B (clinical.StateB, T1/T2 only), tokens, and the similarity of
// each state to the query.
func Prepare(ctx context.Context, cases []Case, opt Options) (*Suite, error) {
	if opt.Embedder == nil {
		opt.Embedder = embed.NewHash(384)
	}
	if opt.Tokenizer == nil {
		tok, err := text.NewTokenizer()
		if err != nil {
			return nil, err
		}
		opt.Tokenizer = tok
	}
	noisy := cases
	if opt.NoiseRatio > 0 {
		noisy = AddNoise(cases, opt.NoiseRatio, opt.Seed)
	}
	if opt.Duplicates {
		noisy = AddDuplicates(noisy, opt.Seed)
	}
	s := &Suite{cases: make([]prepared, len(noisy)),
		count: func(_ int, text string) int { return opt.Tokenizer.Count(text) }}
	errs := make([]error, len(noisy))
	parallel(len(noisy), func(_, i int) {
		s.cases[i], errs[i] = prepareCase(ctx, &noisy[i], &opt)
		s.cases[i].question = caseQuestion(&cases[i])
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Len returns the number of cases.
func (s *Suite) Len() int { return len(s.cases) }

func prepareCase(ctx context.Context, c *Case, opt *Options) (prepared, error) {
	now, _ := base.ParseDay(c.Now) // checked by ReadCases
	p := prepared{id: c.ID, now: now, cands: make([]pack.Candidate, len(c.Segments))}
	texts := []string{c.Query}
	hasB := make([]bool, len(c.Segments))
	copies := map[string][]int{} // by the id of the original
	for i, seg := range c.Segments {
		if seg.copyOf != "" {
			copies[seg.copyOf] = append(copies[seg.copyOf], i)
		}
	}
	for i, seg := range c.Segments {
		classified, why := clinical.Classify(seg.Type, base.TierNone, seg.Text)
		tier, evalTier := classified, classified
		if seg.Tier.Valid() {
			evalTier = seg.Tier
			if opt.GoldTiers {
				tier = seg.Tier
			}
		}
		day, _ := base.ParseDay(seg.Time)
		cand := pack.Candidate{ID: seg.ID, Tier: tier, Day: day, Rank: i, Permanent: why.Permanent(),
			A: pack.State{Text: seg.Text, Tokens: opt.Tokenizer.Count(seg.Text)}}
		texts = append(texts, seg.Text)
		if tier == base.T1 || tier == base.T2 {
			if b, tokens, kept, total := clinical.StateB(seg.Text, cand.A.Tokens, opt.Tokenizer.Count); b != "" {
				cand.B = &pack.State{Text: b, Tokens: tokens}
				cand.NEntity, cand.NTotal = kept, total
				hasB[i] = true
				texts = append(texts, b)
			}
		}
		p.cands[i] = cand
		if seg.Signal {
			keys := seg.Keys
			if keys == nil {
				keys = clinical.Keys(seg.Text)
			}
			p.signal = append(p.signal, signalSeg{cand: i, copies: copies[seg.ID], keys: foldKeys(keys), tier: evalTier})
		}
	}
	vecs, err := opt.Embedder.Embed(ctx, texts)
	if err != nil {
		return prepared{}, fmt.Errorf("case %q: embedding: %w", c.ID, err)
	}
	next := 1
	vecA := make([][]float32, len(p.cands))
	for i := range p.cands {
		p.cands[i].A.Sim = dot(vecs[0], vecs[next])
		vecA[i] = vecs[next]
		next++
		if hasB[i] {
			p.cands[i].B.Sim = dot(vecs[0], vecs[next])
			next++
		}
	}
	if opt.Dedup {
		p.dedup(vecA)
	}
	return p, nil
}

func dot(a, b []float32) float64 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}

// workers is how many goroutines parallel uses.
func workers() int { return runtime.GOMAXPROCS(0) }

// parallel runs f(worker, i) for i in 0..n-1 on workers() goroutines;
// worker (0..workers()-1) lets f keep per-goroutine scratch space.
func parallel(n int, f func(worker, i int)) { parallelOn(workers(), n, f) }

// parallelOn is parallel on the given number of goroutines.
func parallelOn(goroutines, n int, f func(worker, i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for w := range goroutines {
		wg.Go(func() {
			for i := range next {
				f(w, i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
