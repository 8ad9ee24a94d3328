package dsl

import (
	"math"
	"strconv"
	"strings"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/planner/pack"
)

// Check validates a statement and binds it into a Query with every default
// filled in. It needs no store: field names, ranges, dates and tiers are
// checked here; metapath names and types are the graph's to check. Every
// error is an *Error positioned on the offending token, and the first one
// in clause order is returned.
func Check(s *Statement) (*Query, error) {
	c := &checker{
		src: s.src,
		q:   &Query{src: s.src, Defaulted: map[Param]bool{}},
	}
	bound, err := s.bindings()
	if err != nil {
		return nil, err
	}
	c.q.Bindings = bound
	steps := []func(*Statement) *Error{c.retrieve, c.using, c.where, c.gate, c.fuse, c.expand, c.rerank, c.pack, c.limit}
	for _, step := range steps {
		if err := step(s); err != nil {
			return nil, err
		}
	}
	return c.q, nil
}

// checker carries the query being bound through the steps of Check.
type checker struct {
	src source
	q   *Query
}

func (c *checker) defaulted(ps ...Param) {
	for _, p := range ps {
		if p == "" {
			panic("dsl: a required parameter reached its default")
		}
		c.q.Defaulted[p] = true
	}
}

func (c *checker) retrieve(s *Statement) *Error {
	if s.Explain != nil {
		c.q.Explain, c.q.Analyze = true, s.Explain.Analyze
	}
	if s.Retrieve == nil {
		return c.src.errorf(s.Pos, `a statement needs RETRIEVE "<query text>"`)
	}
	t := s.Retrieve.Text
	switch {
	case strings.TrimSpace(t.Value) == "":
		return c.src.errorf(t.Pos, "query text is empty")
	case len(t.Value) > MaxTextBytes:
		return c.src.errorf(t.Pos, "query text is %d bytes; at most %d are allowed", len(t.Value), MaxTextBytes)
	}
	c.q.Text, c.q.TextPos = t.Value, t.Pos
	return nil
}

func (c *checker) using(s *Statement) *Error {
	u := s.Using
	if u == nil {
		c.q.BM25, c.q.Vector = &Arm{K: defaultK}, &Arm{K: defaultK}
		c.defaulted(ParamUsing, ParamBM25K, ParamVectorK, ParamVectorScan)
		return nil
	}
	if u.BM25 == nil && u.Vector == nil {
		return c.src.errorf(u.Pos, "USING names no arm; use bm25, vector or both")
	}
	var err *Error
	if c.q.BM25, err = c.arm(u.BM25, "bm25", ParamBM25K); err != nil {
		return err
	}
	c.q.Vector, err = c.arm(u.Vector, "vector", ParamVectorK)
	return err
}

func (c *checker) arm(a *ArmSpec, name string, p Param) (*Arm, *Error) {
	if a == nil {
		return nil, nil
	}
	k, err := c.whole(a.K, spec{name: name + " k", lo: 1, hi: maxK, def: defaultK, key: p})
	if err != nil {
		return nil, err
	}
	arm := &Arm{K: k}
	switch {
	case a.Scan == nil:
		if name == "vector" {
			c.defaulted(ParamVectorScan)
		}
	case name != "vector":
		return nil, c.src.errorf(a.Scan.Pos, "scan applies to the vector arm only")
	case a.Scan.Text != ScanF32 && a.Scan.Text != ScanInt8:
		return nil, c.src.errorf(a.Scan.Pos, "unknown scan %q; use %s or %s", a.Scan.Text, ScanF32, ScanInt8)
	default:
		arm.Scan = a.Scan.Text
	}
	return arm, nil
}

// gate reads GATE's thresholds: 0 <= theta2 <= theta1 <= 1.
func (c *checker) gate(s *Statement) *Error {
	g := s.Gate
	if g == nil {
		return nil
	}
	x := &Gate{}
	var err *Error
	if x.Theta1, err = c.decimal(g.Theta1, spec{name: "theta1", lo: 0, hi: 1, def: defaultTheta1, key: ParamTheta1}); err != nil {
		return err
	}
	if x.Theta2, err = c.decimal(g.Theta2, spec{name: "theta2", lo: 0, hi: 1, def: defaultTheta2, key: ParamTheta2}); err != nil {
		return err
	}
	if x.Theta2 > x.Theta1 {
		at := g.Pos
		if g.Theta2 != nil {
			at = g.Theta2.Pos
		} else if g.Theta1 != nil {
			at = g.Theta1.Pos
		}
		return c.src.errorf(at, "theta2 %s is above theta1 %s; theta2 (warn below) must not exceed theta1 (answer at or above)",
			fmtFloat(x.Theta2), fmtFloat(x.Theta1))
	}
	c.q.Gate = x
	return nil
}

func (c *checker) fuse(s *Statement) *Error {
	f := s.Fuse
	if f == nil {
		c.q.Fuse = Fuse{Method: FuseRRF, K: defaultRRFK}
		c.defaulted(ParamFuse, ParamFuseK)
		return nil
	}
	c.q.Fuse.Method = f.Method
	var err *Error
	switch f.Method {
	case FuseRRF:
		c.q.Fuse.K, err = c.decimal(f.Param, spec{name: "rrf k", lo: 0, hi: math.Inf(1), def: defaultRRFK, key: ParamFuseK})
		if err == nil && c.q.Fuse.K == 0 {
			err = c.src.errorf(f.Param.Pos, "rrf k must be above 0, got %s", f.Param.Text)
		}
	case FuseWeighted:
		if f.Auto {
			c.q.Fuse.AlphaAuto = true
			break
		}
		c.q.Fuse.Alpha, err = c.decimal(f.Param, spec{name: "alpha", lo: 0, hi: 1, def: defaultAlpha, key: ParamFuseAlpha})
	case FuseDocVote:
		err = c.docVote(f)
	default:
		err = c.src.errorf(f.Pos, "unknown fusion method %q; use rrf, weighted or docvote", f.Method)
	}
	return err
}

// docVote reads docvote's m, k and voting arms; the arms that vote must
// be arms USING names.
func (c *checker) docVote(f *FuseClause) *Error {
	var err *Error
	if c.q.Fuse.M, err = c.whole(f.Param, spec{name: "docvote m", lo: 1, hi: maxDocVoteM, def: defaultDocVoteM, key: ParamFuseM}); err != nil {
		return err
	}
	if c.q.Fuse.Docs, err = c.whole(f.Docs, spec{name: "docvote k", lo: 1, hi: maxDocVoteK, def: defaultDocVoteK, key: ParamFuseDocs}); err != nil {
		return err
	}
	if f.Votes == nil {
		c.defaulted(ParamFuseVotes)
		c.q.Fuse.Votes = VotesBM25
		if c.q.BM25 == nil {
			c.q.Fuse.Votes = VotesVector
		}
		return nil
	}
	v := f.Votes.Text
	switch {
	case v != VotesBM25 && v != VotesVector && v != VotesBoth:
		return c.src.errorf(f.Votes.Pos, "unknown docvote votes %q; use bm25, vector or both", v)
	case v != VotesVector && c.q.BM25 == nil:
		return c.src.errorf(f.Votes.Pos, "docvote votes=%s needs the bm25 arm, which USING leaves out", v)
	case v != VotesBM25 && c.q.Vector == nil:
		return c.src.errorf(f.Votes.Pos, "docvote votes=%s needs the vector arm, which USING leaves out", v)
	}
	c.q.Fuse.Votes = v
	return nil
}

func (c *checker) expand(s *Statement) *Error {
	e := s.Expand
	if e == nil {
		return nil
	}
	if len(e.Metapaths) == 0 {
		return c.src.errorf(e.Pos, "EXPAND needs at least one metapath")
	}
	x := &Expand{}
	for i, m := range e.Metapaths {
		if i == maxMetapaths {
			return c.src.errorf(m.Pos, "EXPAND takes at most %d metapaths, got %d (split them across statements)", maxMetapaths, len(e.Metapaths))
		}
		if strings.TrimSpace(m.Value) == "" {
			return c.src.errorf(m.Pos, "metapath is empty")
		}
		x.Metapaths = append(x.Metapaths, Metapath{Text: m.Value, Pos: m.Pos})
	}
	var err *Error
	if x.Hops, err = c.whole(e.Hops, spec{name: "HOPS", lo: 1, hi: maxHops, def: defaultHops, key: ParamHops}); err != nil {
		return err
	}
	if x.Limit, err = c.whole(e.Limit, spec{name: "EXPAND LIMIT", lo: 1, hi: maxExpandLimit, def: defaultExpandLimit, key: ParamExpandLimit}); err != nil {
		return err
	}
	if x.MinEntities, err = c.whole(e.When, spec{name: "WHEN entities", lo: 0, hi: maxEntities, def: defaultMinEntities, key: ParamMinEntities}); err != nil {
		return err
	}
	c.q.Expand = x
	return nil
}

// rerank reads RERANK's top; which reranker runs is the store's or the
// process's (never the statement's), so nothing else is checked here.
func (c *checker) rerank(s *Statement) *Error {
	r := s.Rerank
	if r == nil {
		return nil
	}
	top, err := c.whole(r.Top, spec{name: "RERANK top", lo: 1, hi: maxRerankTop, def: defaultRerankTop, key: ParamRerankTop})
	if err != nil {
		return err
	}
	c.q.Rerank = &Rerank{Top: top}
	return nil
}

func (c *checker) pack(s *Statement) *Error {
	p := s.Pack
	if p == nil {
		return nil
	}
	if p.Budget == nil {
		return c.src.errorf(p.Pos, "PACK needs a budget, as in PACK budget 512")
	}
	x := &Pack{}
	var err *Error
	if x.Budget, err = c.whole(p.Budget, spec{name: "budget", lo: 1, hi: maxBudget}); err != nil {
		return err
	}
	if x.Kmin, err = c.whole(p.Kmin, spec{name: "kmin", lo: 0, hi: maxKmin, def: defaultKmin, key: ParamKmin}); err != nil {
		return err
	}
	if x.Weights, err = c.weights(p.Weights); err != nil {
		return err
	}
	if x.Lambda, err = c.decimal(p.Lambda, spec{name: "lambda", lo: 0, hi: math.Inf(1), def: defaultLambda, key: ParamLambda}); err != nil {
		return err
	}
	if x.Epsilon, err = c.decimal(p.Epsilon, spec{name: "epsilon", lo: 0, hi: 1, def: defaultEpsilon, key: ParamEpsilon}); err != nil {
		return err
	}
	if x.Floor, err = c.decimal(p.Floor, spec{name: "floor", lo: 0, hi: 1, def: defaultFloor, key: ParamFloor}); err != nil {
		return err
	}
	if x.Reliability, err = c.decimal(p.Reliab, spec{name: "reliability", lo: 0, hi: 1, def: defaultReliability, key: ParamReliability}); err != nil {
		return err
	}
	if x.Strategy, err = c.strategy(p.Strategy); err != nil {
		return err
	}
	if x.Now, x.NowPos, err = c.now(p.Now); err != nil {
		return err
	}
	c.q.Pack = x
	return nil
}

// weights reads the four tier weights: all above 0 and non-increasing
// from T1 to T4, so a more objective tier never weighs less. The
// EBM-Pack paper states alpha >= beta >= gamma >= 1 with T4 fixed at 1;
// medkb accepts any
// positive non-increasing four, of which the paper's grid is a subset.
func (c *checker) weights(l *NumList) ([4]float64, *Error) {
	var w [4]float64
	if l == nil {
		c.defaulted(ParamWeights)
		return defaultWeights(), nil
	}
	if len(l.Nums) != len(w) {
		return w, c.src.errorf(l.Pos, "weights takes 4 numbers, for T1, T2, T3 and T4; got %d", len(l.Nums))
	}
	for i, n := range l.Nums {
		v, err := c.decimal(&n, spec{name: "a weight", lo: 0, hi: math.Inf(1)})
		switch {
		case err != nil:
			return w, err
		case v == 0:
			return w, c.src.errorf(n.Pos, "the T%d weight must be above 0", i+1)
		case i > 0 && v > w[i-1]:
			return w, c.src.errorf(n.Pos, "weights must not increase from T1 to T4: the T%d weight %s is above the T%d weight %s",
				i+1, n.Text, i, fmtFloat(w[i-1]))
		}
		w[i] = v
	}
	return w, nil
}

// strategy reads a strategy name; the packer owns the names (Parse
// already refused a word that is none of them, but a Statement may be
// built by hand).
func (c *checker) strategy(n *Name) (pack.Strategy, *Error) {
	if n == nil {
		c.defaulted(ParamStrategy)
		return defaultStrategy, nil
	}
	for _, s := range pack.Strategies {
		if n.Text == s.String() {
			return s, nil
		}
	}
	return defaultStrategy, c.src.errorf(n.Pos, "unknown strategy %q; use %s", n.Text, strings.Join(pack.StrategyNames(), ", "))
}

func (c *checker) now(s *Str) (base.Day, Pos, *Error) {
	if s == nil {
		c.defaulted(ParamNow)
		return base.NoDay, Pos{}, nil
	}
	d, err := base.ParseDay(s.Value)
	switch {
	case err != nil:
		return base.NoDay, s.Pos, c.src.errorf(s.Pos, "now: %v", err)
	case d == base.NoDay:
		return base.NoDay, s.Pos, c.src.errorf(s.Pos, "now is empty; leave it out for the time of execution")
	}
	return d, s.Pos, nil
}

func (c *checker) limit(s *Statement) *Error {
	if s.Limit == nil {
		c.defaulted(ParamLimit)
		if s.Pack == nil {
			c.q.Limit = defaultLimit
		}
		return nil
	}
	var err *Error
	c.q.Limit, err = c.whole(&s.Limit.N, spec{name: "LIMIT", lo: 1, hi: maxLimit})
	return err
}

// spec says how to read one numeric parameter.
type spec struct {
	name   string  // as messages name it
	lo, hi float64 // inclusive bounds; hi may be +Inf
	def    float64 // the value when the parameter is absent
	key    Param   // recorded in Defaulted when def is used
}

// whole reads n as a whole number within sp, or sp's default when n is
// absent.
func (c *checker) whole(n *Num, sp spec) (int, *Error) {
	if n == nil {
		c.defaulted(sp.key)
		return int(sp.def), nil
	}
	if !isDecimal(n.Text) || strings.Contains(n.Text, ".") {
		return 0, c.src.errorf(n.Pos, "%s must be a whole number, got %s", sp.name, n.Text)
	}
	v, err := strconv.Atoi(n.Text)
	if err != nil || float64(v) < sp.lo || float64(v) > sp.hi {
		return 0, c.src.errorf(n.Pos, "%s must be between %s and %s, got %s", sp.name, fmtFloat(sp.lo), fmtFloat(sp.hi), n.Text)
	}
	return v, nil
}

// decimal reads n as a number within sp, or sp's default when n is absent.
func (c *checker) decimal(n *Num, sp spec) (float64, *Error) {
	if n == nil {
		c.defaulted(sp.key)
		return sp.def, nil
	}
	if !isDecimal(n.Text) {
		return 0, c.src.errorf(n.Pos, "%s must be a number, got %q", sp.name, n.Text)
	}
	v, err := strconv.ParseFloat(n.Text, 64)
	switch {
	case err != nil:
		return 0, c.src.errorf(n.Pos, "%s is too large: %s", sp.name, n.Text)
	case math.IsInf(sp.hi, 1) && v < sp.lo:
		return 0, c.src.errorf(n.Pos, "%s must be at least %s, got %s", sp.name, fmtFloat(sp.lo), n.Text)
	case v < sp.lo || v > sp.hi:
		return 0, c.src.errorf(n.Pos, "%s must be between %s and %s, got %s", sp.name, fmtFloat(sp.lo), fmtFloat(sp.hi), n.Text)
	}
	return v, nil
}

// isDecimal reports whether s is digits with an optional fraction, the
// only numbers the lexer makes (a hand-built Num may hold anything).
func isDecimal(s string) bool {
	intPart, frac, hasFrac := strings.Cut(s, ".")
	return allDigits(intPart) && (!hasFrac || allDigits(frac))
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
