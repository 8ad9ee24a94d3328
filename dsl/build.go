package dsl

import (
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/medkb/medkb/dsl/internal/grammar"
	"github.com/medkb/medkb/internal/base"
)

// build turns participle's concrete tree into a Statement. The lexical
// pass has already vetted every string and number, so decoding cannot
// fail here; what build rejects is repetition the grammar lets through
// (an arm named twice in USING, a PACK option given twice), so that the
// message can name both places.
func build(text source, g *grammar.Statement) (*Statement, *Error) {
	s := &Statement{src: text}
	if g.Explain != nil {
		s.Explain = &ExplainClause{Pos: pos(g.Explain.Pos), Analyze: g.Explain.Analyze}
	}
	s.Retrieve = &RetrieveClause{Pos: pos(g.Retrieve.Pos), Text: str(g.Retrieve.Text)}
	if g.Using != nil {
		u, err := buildUsing(text, g.Using)
		if err != nil {
			return nil, err
		}
		s.Using = u
	}
	if g.Where != nil {
		s.Where = buildWhere(g.Where)
	}
	if g.Gate != nil {
		gc, err := buildGate(text, g.Gate)
		if err != nil {
			return nil, err
		}
		s.Gate = gc
	}
	if g.Fuse != nil {
		f, err := buildFuse(text, g.Fuse)
		if err != nil {
			return nil, err
		}
		s.Fuse = f
	}
	if g.Expand != nil {
		s.Expand = buildExpand(g.Expand)
	}
	if g.Rerank != nil {
		s.Rerank = &RerankClause{Pos: pos(g.Rerank.Pos), Top: optNum(g.Rerank.Top)}
	}
	if g.Pack != nil {
		p, err := buildPack(text, g.Pack)
		if err != nil {
			return nil, err
		}
		s.Pack = p
	}
	if g.Limit != nil {
		s.Limit = &LimitClause{Pos: pos(g.Limit.Pos), N: num(g.Limit.N)}
	}
	return s, nil
}

func buildUsing(text source, g *grammar.Using) (*UsingClause, *Error) {
	u := &UsingClause{Pos: pos(g.Pos)}
	for _, arm := range g.Arms {
		spec := &ArmSpec{Pos: pos(arm.Pos)}
		name := strings.ToLower(arm.Name)
		for _, o := range arm.Options {
			given, what := spec.K != nil, "k"
			if o.Scan != nil {
				given, what = spec.Scan != nil, "scan"
			}
			if given {
				return nil, text.errorf(pos(o.Pos), "%s is given twice for %s", what, name)
			}
			if o.Scan != nil {
				spec.Scan = &Name{Pos: pos(o.Scan.Pos), Text: strings.ToLower(o.Scan.Name)}
			} else {
				spec.K = optNum(o.K)
			}
		}
		slot := &u.BM25
		if name == "vector" {
			slot = &u.Vector
		}
		if *slot != nil {
			return nil, text.errorf(spec.Pos, "%s is named twice in USING (first at %s)", name, (*slot).Pos)
		}
		*slot = spec
	}
	return u, nil
}

func buildWhere(g *grammar.Where) *WhereClause {
	w := &WhereClause{Pos: pos(g.Pos)}
	for _, c := range g.Conds {
		cond := Condition{Pos: pos(c.Pos), Field: buildField(c.Field)}
		if c.In != nil {
			cond.Op, cond.OpPos = base.OpIn, pos(c.In.Pos)
			for _, v := range c.In.Values {
				cond.Values = append(cond.Values, buildValue(v))
			}
		} else {
			cond.Op, cond.OpPos = base.Op(c.Compare.Op), pos(c.Compare.Pos)
			cond.Values = []Value{buildValue(c.Compare.Value)}
		}
		w.Conds = append(w.Conds, cond)
	}
	return w
}

func buildField(g *grammar.Field) Field {
	if g.Meta == nil {
		return Field{Pos: pos(g.Pos), Name: strings.ToLower(g.Name)}
	}
	key := g.Meta.Name
	if g.Meta.Quoted != nil {
		key = literal(g.Meta.Quoted).Value
	}
	return Field{Pos: pos(g.Pos), Name: base.MetaPrefix + key}
}

func buildValue(g *grammar.Value) Value {
	switch {
	case g.String != nil && g.String.Param != "":
		return Value{Pos: pos(g.Pos), Kind: ValueParam, Placeholder: placeholder(g.String.Param)}
	case g.String != nil:
		return Value{Pos: pos(g.Pos), Kind: ValueString, Text: str(g.String).Value}
	case g.Number != nil:
		return Value{Pos: pos(g.Pos), Kind: ValueNumber, Text: g.Number.Text}
	}
	return Value{Pos: pos(g.Pos), Kind: ValueName, Text: g.Name}
}

func buildGate(text source, g *grammar.Gate) (*GateClause, *Error) {
	gc := &GateClause{Pos: pos(g.Pos)}
	for _, o := range g.Options {
		slot := &gc.Theta1
		name := strings.ToLower(o.Name)
		if name == "theta2" {
			slot = &gc.Theta2
		}
		if *slot != nil {
			return nil, text.errorf(pos(o.Pos), "%s is given twice in GATE (first at %s)", name, (*slot).Pos)
		}
		*slot = optNum(o.Value)
	}
	return gc, nil
}

func buildFuse(text source, g *grammar.Fuse) (*FuseClause, *Error) {
	f := &FuseClause{Pos: pos(g.Pos)}
	switch {
	case g.RRF != nil:
		f.Method, f.Param = FuseRRF, optNum(g.RRF.K)
	case g.Weighted != nil:
		f.Method, f.Param, f.Auto = FuseWeighted, optNum(g.Weighted.Alpha), g.Weighted.Auto
	default:
		f.Method = FuseDocVote
		seen := map[string]Pos{}
		for _, o := range g.DocVote.Options {
			name := "votes"
			switch {
			case o.M != nil:
				name, f.Param = "m", optNum(o.M)
			case o.K != nil:
				name, f.Docs = "k", optNum(o.K)
			default:
				f.Votes = &Name{Pos: pos(o.Pos), Text: strings.ToLower(o.Votes)}
			}
			if first, dup := seen[name]; dup {
				return nil, text.errorf(pos(o.Pos), "%s is given twice in docvote (first at %s)", name, first)
			}
			seen[name] = pos(o.Pos)
		}
	}
	return f, nil
}

func buildExpand(g *grammar.Expand) *ExpandClause {
	e := &ExpandClause{Pos: pos(g.Pos), Hops: optNum(g.Hops), Limit: optNum(g.Limit), When: optNum(g.When)}
	for _, m := range g.Metapaths {
		e.Metapaths = append(e.Metapaths, literal(m))
	}
	return e
}

func buildPack(text source, g *grammar.Pack) (*PackClause, *Error) {
	p := &PackClause{Pos: pos(g.Pos)}
	seen := map[string]Pos{}
	for _, o := range g.Options {
		name := packOptionName(o)
		if name == "" {
			panic(fmt.Sprintf("dsl: PACK option at %s has no field set", o.Pos))
		}
		if first, dup := seen[name]; dup {
			return nil, text.errorf(pos(o.Pos), "%s is given twice in PACK (first at %s)", name, first)
		}
		seen[name] = pos(o.Pos)
		switch name {
		case "budget":
			p.Budget = optNum(o.Budget)
		case "kmin":
			p.Kmin = optNum(o.Kmin)
		case "weights":
			p.Weights = &NumList{Pos: pos(o.Pos)}
			for _, n := range o.Weights {
				p.Weights.Nums = append(p.Weights.Nums, num(n))
			}
		case "lambda":
			p.Lambda = optNum(o.Lambda)
		case "epsilon":
			p.Epsilon = optNum(o.Epsilon)
		case "floor":
			p.Floor = optNum(o.Floor)
		case "reliability":
			p.Reliab = optNum(o.Reliab)
		case "strategy":
			p.Strategy = &Name{Pos: pos(o.Strategy.Pos), Text: strings.ToLower(o.Strategy.Name)}
		case "now":
			now := str(o.Now)
			p.Now = &now
		}
	}
	return p, nil
}

// packOptionName says which field of a PACK option the parser filled; ""
// when none is (an option participle gave up on half way).
func packOptionName(o *grammar.PackOption) string {
	switch {
	case o.Budget != nil:
		return "budget"
	case o.Kmin != nil:
		return "kmin"
	case o.Weights != nil:
		return "weights"
	case o.Lambda != nil:
		return "lambda"
	case o.Epsilon != nil:
		return "epsilon"
	case o.Floor != nil:
		return "floor"
	case o.Reliab != nil:
		return "reliability"
	case o.Strategy != nil:
		return "strategy"
	case o.Now != nil:
		return "now"
	}
	return ""
}

func pos(p lexer.Position) Pos { return Pos{Line: p.Line, Column: p.Column, Offset: p.Offset} }

func num(g *grammar.Number) Num {
	if g.Param != "" {
		return Num{Pos: pos(g.Pos), Placeholder: placeholder(g.Param)}
	}
	return Num{Pos: pos(g.Pos), Text: g.Text}
}

// placeholder records the parameter written as tok ("$name").
func placeholder(tok string) *Placeholder {
	return &Placeholder{Name: strings.TrimPrefix(tok, "$")}
}

func optNum(g *grammar.Number) *Num {
	if g == nil {
		return nil
	}
	n := num(g)
	return &n
}

// str decodes a literal the lexical pass has already accepted, or records
// a parameter.
func str(g *grammar.String) Str {
	if g.Param != "" {
		return Str{Pos: pos(g.Pos), Placeholder: placeholder(g.Param)}
	}
	return literal(&grammar.Literal{Pos: g.Pos, Raw: g.Raw})
}

// literal decodes a literal the lexical pass has already accepted.
func literal(g *grammar.Literal) Str {
	v, bad := unquote(g.Raw)
	if bad != nil {
		panic(fmt.Sprintf("dsl: literal at %s passed the lexical check but does not decode: %s", g.Pos, bad.msg))
	}
	return Str{Pos: pos(g.Pos), Value: v}
}
