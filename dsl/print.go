package dsl

import (
	"strings"

	"github.com/medkb/medkb/dsl/internal/grammar"
	"github.com/medkb/medkb/internal/base"
)

// String prints s in canonical form: one clause a line, keywords in their
// canonical spelling (clause keywords upper-case, parameter names
// lower-case, as docs/query-language.md writes them), USING arms bm25
// first, PACK
// options in grammar order, strings re-escaped, nothing defaulted. For a
// statement from Parse, Parse(s.String()) gives the same tree apart from
// positions.
//
// One shape has no text of its own: EXPAND with neither LIMIT nor WHEN,
// no PACK, and a statement LIMIT. Parse never builds it (that LIMIT
// belongs to EXPAND), so a hand-built one prints as text that reads back
// with the LIMIT inside EXPAND.
func (s *Statement) String() string {
	var lines []string
	add := func(parts ...string) { lines = append(lines, strings.Join(parts, " ")) }
	if s.Explain != nil {
		if s.Explain.Analyze {
			add("EXPLAIN", "ANALYZE")
		} else {
			add("EXPLAIN")
		}
	}
	if s.Retrieve != nil {
		add("RETRIEVE", s.Retrieve.Text.written())
	}
	if u := s.Using; u != nil {
		var arms []string
		if u.BM25 != nil {
			arms = append(arms, printArm("bm25", u.BM25))
		}
		if u.Vector != nil {
			arms = append(arms, printArm("vector", u.Vector))
		}
		add("USING", strings.Join(arms, ", "))
	}
	if w := s.Where; w != nil {
		conds := make([]string, len(w.Conds))
		for i, c := range w.Conds {
			conds[i] = printCond(c)
		}
		add("WHERE", strings.Join(conds, " AND "))
	}
	if g := s.Gate; g != nil {
		add(printGate(g))
	}
	if f := s.Fuse; f != nil {
		add("FUSE", printFuse(f))
	}
	if e := s.Expand; e != nil {
		add(printExpand(e)...)
	}
	if r := s.Rerank; r != nil {
		if r.Top != nil {
			add("RERANK", "top", r.Top.written())
		} else {
			add("RERANK")
		}
	}
	if p := s.Pack; p != nil {
		add(printPack(p)...)
	}
	if s.Limit != nil {
		add("LIMIT", s.Limit.N.written())
	}
	return strings.Join(lines, "\n")
}

func printArm(name string, a *ArmSpec) string {
	var opts []string
	if a.K != nil {
		opts = append(opts, "k="+a.K.written())
	}
	if a.Scan != nil {
		opts = append(opts, "scan="+a.Scan.Text)
	}
	if len(opts) == 0 {
		return name
	}
	return name + "(" + strings.Join(opts, ", ") + ")"
}

func printCond(c Condition) string {
	field := c.Field.Name
	if key, ok := strings.CutPrefix(field, base.MetaPrefix); ok && !grammar.IsName(key) {
		field = base.MetaPrefix + quote(key)
	}
	vals := make([]string, len(c.Values))
	for i, v := range c.Values {
		vals[i] = printValue(v)
	}
	if c.Op == base.OpIn {
		return field + " IN (" + strings.Join(vals, ", ") + ")"
	}
	return field + " " + string(c.Op) + " " + strings.Join(vals, ", ")
}

func printValue(v Value) string {
	switch {
	case v.Placeholder != nil:
		return "$" + v.Placeholder.Name
	case v.Kind == ValueName && grammar.IsName(v.Text), v.Kind == ValueNumber && isDecimal(v.Text):
		return v.Text
	}
	return quote(v.Text)
}

func printGate(g *GateClause) string {
	var opts []string
	if g.Theta1 != nil {
		opts = append(opts, "theta1="+g.Theta1.written())
	}
	if g.Theta2 != nil {
		opts = append(opts, "theta2="+g.Theta2.written())
	}
	if len(opts) == 0 {
		return "GATE"
	}
	return "GATE(" + strings.Join(opts, ", ") + ")"
}

func printFuse(f *FuseClause) string {
	if f.Auto {
		return f.Method + "(alpha=auto)"
	}
	var opts []string
	if f.Param != nil {
		param := map[string]string{FuseRRF: "k", FuseWeighted: "alpha", FuseDocVote: "m"}[f.Method]
		opts = append(opts, param+"="+f.Param.written())
	}
	if f.Docs != nil {
		opts = append(opts, "k="+f.Docs.written())
	}
	if f.Votes != nil {
		opts = append(opts, "votes="+f.Votes.Text)
	}
	if len(opts) == 0 {
		return f.Method
	}
	return f.Method + "(" + strings.Join(opts, ", ") + ")"
}

func printExpand(e *ExpandClause) []string {
	paths := make([]string, len(e.Metapaths))
	for i, m := range e.Metapaths {
		paths[i] = quote(m.Value)
	}
	parts := []string{"EXPAND", "metapath", strings.Join(paths, ", ")}
	if e.Hops != nil {
		parts = append(parts, "HOPS", e.Hops.written())
	}
	if e.Limit != nil {
		parts = append(parts, "LIMIT", e.Limit.written())
	}
	if e.When != nil {
		parts = append(parts, "WHEN", "entities", ">=", e.When.written())
	}
	return parts
}

func printPack(p *PackClause) []string {
	parts := []string{"PACK"}
	num := func(name string, n *Num) {
		if n != nil {
			parts = append(parts, name, n.written())
		}
	}
	num("budget", p.Budget)
	num("kmin", p.Kmin)
	if p.Weights != nil {
		w := make([]string, len(p.Weights.Nums))
		for i, n := range p.Weights.Nums {
			w[i] = n.written()
		}
		parts = append(parts, "weights", "("+strings.Join(w, ", ")+")")
	}
	num("lambda", p.Lambda)
	num("epsilon", p.Epsilon)
	num("floor", p.Floor)
	num("reliability", p.Reliab)
	if p.Strategy != nil {
		parts = append(parts, "strategy", p.Strategy.Text)
	}
	if p.Now != nil {
		parts = append(parts, "now", p.Now.written())
	}
	return parts
}

// written is s as it is written: a literal, or $name for a parameter.
func (s Str) written() string {
	if s.Placeholder != nil {
		return "$" + s.Placeholder.Name
	}
	return quote(s.Value)
}

// written is n as it is written: digits, or $name for a parameter.
func (n Num) written() string {
	if n.Placeholder != nil {
		return "$" + n.Placeholder.Name
	}
	return n.Text
}
