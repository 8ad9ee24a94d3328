package planner

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/reliability"
	"github.com/medkb/medkb/planner/pack"
)

// assemble numbers the items as citations, fills their document fields and
// writes the context (the cited evidence, ready for a prompt) and the
// source list.
func (x *execution) assemble(ctx context.Context) error {
	ids := make([]string, len(x.res.Items))
	for i, it := range x.res.Items {
		ids[i] = it.Doc
	}
	docs, err := x.env.Store.Docs(ids)
	if err != nil {
		return err
	}
	var body strings.Builder
	covered := map[string]bool{}
	today := x.today()
	for i := range x.res.Items {
		if i%checkEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		it := &x.res.Items[i]
		it.Rank = i + 1
		covered[it.Tier] = true
		d := docs[i]
		if d != nil {
			it.Type, it.Time = d.Type, d.Time
			it.Reliability = reliability.Score(reliability.Of(d), today)
		}
		head := lineHead(it.Rank, it.Tier, it.Provenance.Path != nil, it.day, lineTag(it.State, it.Cut))
		// The packer costed the line under the largest citation number;
		// the count under the item's own, from the same stored text
		// counts (lineCount), is exact, and never more.
		it.Tokens = x.lineCount(head, it.Text, it.textTokens)
		x.res.TokensUsed += it.Tokens
		body.WriteString(head)
		body.WriteString(it.Text)
		body.WriteByte('\n')
		x.res.Sources = append(x.res.Sources, newSource(it, d))
	}
	for _, t := range base.Tiers {
		if covered[t.String()] {
			x.res.Tiers = append(x.res.Tiers, t.String())
		}
	}
	x.res.Context = body.String()
	return nil
}

// today is the day recency is measured to, for time decay and
// reliability alike: PACK's now when the statement gives one, else the
// day of execution.
func (x *execution) today() base.Day {
	if x.p.Pack != nil && x.p.Pack.NowText != "" {
		return x.p.Pack.Params.Now
	}
	return base.DayOf(time.Now())
}

// lineHead is what precedes an item's text on its line of the context:
// its citation number, its tier and tags (graph path, date, compressed)
// and a colon. The text follows, then a newline:
//
//	[2] T2 2023-09-12 compressed: Total cholesterol 3.9 mmol/L; ...
//
// The packer is charged for the whole line (lineTokens), so the context
// never holds more tokens than the budget; the head is kept short for
// that reason (about 14 tokens). Its tags are what the chunk and its
// vector slot know, so that a candidate's line is costed without reading
// its document: the date is the day the document's time names (a month
// or a year reads as its first day), and the document's type and title
// are left to the source list.
//
// The tag says the text is not the chunk's as written: "compressed" for
// state B, "cut" for a text the uniform baseline cut short (lineTag).
func lineHead(rank int, tier string, path bool, day base.Day, tag string) string {
	b := make([]byte, 0, 48)
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(rank), 10)
	b = append(b, "] "...)
	b = append(b, tier...)
	if path {
		b = append(b, " graph path"...)
	}
	if day != base.NoDay {
		b = append(b, ' ')
		b = append(b, day.String()...)
	}
	if tag != "" {
		b = append(b, ' ')
		b = append(b, tag...)
	}
	b = append(b, ": "...)
	return string(b)
}

// LineTokens is what a document's chunk costs in the context as the
// rank-th item in state ("A" or "B"): its whole line, lineHead (no graph
// path), the text and a newline, counted by count as assemble counts
// it. day is the document's (base.ParseDay of its time). Benchmarks
// cost an oracle's packing with it, in the planner's own terms.
func LineTokens(count func(string) int, rank int, tier string, day base.Day, state, txt string) int {
	return count(lineHead(rank, tier, false, day, lineTag(state, false)) + txt + "\n")
}

// lineTag is the tag of lineHead for a state ("A", "B") whose text may
// have been cut short.
func lineTag(state string, cut bool) string {
	switch {
	case state == string(pack.StateB):
		return "compressed"
	case cut:
		return "cut"
	}
	return ""
}

// newSource is where item it, of document d (nil for a graph path or a
// document gone), comes from.
func newSource(it *Item, d *base.Doc) Source {
	s := Source{Rank: it.Rank, ID: it.ID, Doc: it.Doc, Path: it.Provenance.Path}
	if d != nil {
		s.Title, s.Type, s.Source, s.Patient, s.Time, s.Published = d.Title, d.Type, d.Source, d.Patient, d.Time, d.Published
	}
	return s
}

// String is the source's line in the source list, "[1] doc#0, "title",
// type, source, patient P1, time" (the published date when there is no
// time), or "[2] knowledge graph: A (Disease) -treats-> B (Drug)".
func (s Source) String() string {
	if p := s.Path; p != nil {
		var b strings.Builder
		fmt.Fprintf(&b, "[%d] knowledge graph: ", s.Rank)
		for i, n := range p.Nodes {
			if i > 0 {
				rel := p.Relations[i-1]
				if p.reversed(i - 1) {
					fmt.Fprintf(&b, " <-%s- ", rel)
				} else {
					fmt.Fprintf(&b, " -%s-> ", rel)
				}
			}
			fmt.Fprintf(&b, "%s (%s)", n, p.Types[i])
		}
		return b.String()
	}
	parts := []string{s.ID}
	if s.Title != "" {
		parts = append(parts, fmt.Sprintf("%q", s.Title))
	}
	for _, v := range []string{s.Type, s.Source} {
		if v != "" {
			parts = append(parts, v)
		}
	}
	if s.Patient != "" {
		parts = append(parts, "patient "+s.Patient)
	}
	if t := cmp.Or(s.Time, s.Published); t != "" {
		parts = append(parts, t)
	}
	return fmt.Sprintf("[%d] %s", s.Rank, strings.Join(parts, ", "))
}
