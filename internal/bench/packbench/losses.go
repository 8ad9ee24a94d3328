package packbench

import (
	"fmt"
	"io"
	"strings"

	"github.com/medkb/medkb/planner/pack"
)

// Losses is what one strategy lost at one window (Suite.Losses).
type Losses struct {
	Strategy string `json:"strategy"`
	Window   int    `json:"window"`
	Segments []Loss `json:"segments"`
}

// Loss is a T1/T2 signal segment that did not survive packing, and how.
type Loss struct {
	Case    string `json:"case"`
	Segment string `json:"segment"`
	// Counted is the tier that made the segment count for RRCE (gold, else
	// medkb's); Tier the one it was packed with (medkb's classification,
	// or gold with GoldTiers). A T1 counted but packed as T4 is often why
	// it was lost.
	Counted string `json:"counted_tier"`
	Tier    string `json:"tier"`
	TokensA int    `json:"tokens_a"`
	TokensB int    `json:"tokens_b,omitempty"` // 0: no state B
	// State is "" when the segment was not packed, else the state packed
	// without all its keys; Missing are those keys, folded (text.FoldKey).
	State   string   `json:"state,omitempty"`
	Missing []string `json:"missing,omitempty"`
	Text    string   `json:"text"` // state A
}

// Losses packs every case with p (its Strategy, at its Budget) and lists
// the T1/T2 signal segments that do not survive, case by case in order:
// what a reader of a low RRCE asks first.
func (s *Suite) Losses(p pack.Params) (*Losses, error) {
	var pk pack.Packer
	out := &Losses{Strategy: p.Strategy.String(), Window: p.Budget, Segments: []Loss{}}
	for i := range s.cases {
		c := &s.cases[i]
		p.Now, p.Count = c.now, s.count
		res, err := pk.Pack(c.cands, p)
		if err != nil {
			return nil, fmt.Errorf("case %q: %w", c.id, err)
		}
		state, packed := packedStates(res, len(c.cands))
		for _, sg := range c.signal {
			if !sg.t1t2() {
				continue
			}
			cd := &c.cands[sg.cand]
			l := Loss{Case: c.id, Segment: cd.ID, Counted: sg.tier.String(), Tier: cd.Tier.String(), TokensA: cd.A.Tokens, Text: cd.A.Text}
			if cd.B != nil {
				l.TokensB = cd.B.Tokens
			}
			if state[sg.cand] != 0 {
				for _, k := range sg.keys {
					if !strings.Contains(packed[sg.cand], k) {
						l.Missing = append(l.Missing, k)
					}
				}
				if len(l.Missing) == 0 {
					continue
				}
				l.State = state[sg.cand].String()
			}
			out.Segments = append(out.Segments, l)
		}
	}
	return out, nil
}

// excerpt is s cut to at most n runes, with "..." when cut.
func excerpt(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "..."
}

// WriteTable prints the losses one a line under a heading naming the
// strategy and window.
func (ls *Losses) WriteTable(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "\nT1/T2 signal segments lost by %s at %d tokens: %d\n", ls.Strategy, ls.Window, len(ls.Segments)); err != nil {
		return err
	}
	for _, l := range ls.Segments {
		size := fmt.Sprintf("A %d tokens", l.TokensA)
		if l.TokensB > 0 {
			size += fmt.Sprintf(", B %d", l.TokensB)
		}
		tier := l.Tier
		if l.Counted != l.Tier {
			tier = fmt.Sprintf("%s, counted as %s", l.Tier, l.Counted)
		}
		why := "not packed"
		if l.State != "" {
			why = fmt.Sprintf("packed in state %s without %s", l.State, strings.Join(l.Missing, ", "))
		}
		if _, err := fmt.Fprintf(w, "  %s  %s  %s (%s): %s\n      %s\n", l.Case, l.Segment, tier, size, why, excerpt(l.Text, 60)); err != nil {
			return err
		}
	}
	return nil
}
