package pack

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/golden"
)

func TestGoldenPack(t *testing.T) {
	golden.Run(t, "testdata/pack", func(t *testing.T, c *golden.Case) string {
		p, strategies := parsePackCommand(t, c)
		cands := parseCandidates(t, c)
		var out strings.Builder
		for _, s := range strategies {
			p.Strategy = s
			res, err := Pack(cands, p)
			if err != nil {
				fmt.Fprintf(&out, "%s: error: %v\n", s, err)
				continue
			}
			checkInvariants(t, cands, p, res)
			dumpResult(&out, cands, res)
		}
		return out.String()
	})
}

// countTokens is the golden tests' tokenizer: one token per run of
// non-space characters, and one per CJK character.
func countTokens(s string) int {
	n, inRun := 0, false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			inRun = false
		case unicode.Is(unicode.Han, r):
			n, inRun = n+1, false
		case !inRun:
			n, inRun = n+1, true
		}
	}
	return n
}

// countBlockTokens is countTokens as Params.Count: blocks add nothing.
func countBlockTokens(_ int, s string) int { return countTokens(s) }

func parsePackCommand(t *testing.T, c *golden.Case) (Params, []Strategy) {
	t.Helper()
	if c.Cmd != "pack" {
		t.Fatalf("line %d: unknown command %q", c.Line, c.Cmd)
	}
	p := DefaultParams()
	p.Count, p.SimFloor = countBlockTokens, 0 // sim= is Sim itself unless floor= says otherwise
	strategies := []Strategy{Ebm}
	for key, val := range c.Args {
		var err error
		switch key {
		case "budget":
			p.Budget, err = strconv.Atoi(val)
		case "kmin":
			p.Kmin, err = strconv.Atoi(val)
		case "lambda":
			p.Lambda, err = strconv.ParseFloat(val, 64)
		case "epsilon":
			p.Epsilon, err = strconv.ParseFloat(val, 64)
		case "floor":
			p.SimFloor, err = strconv.ParseFloat(val, 64)
		case "now":
			p.Now, err = base.ParseDay(val)
		case "weights":
			for i, w := range strings.Split(val, ",") {
				if i < 4 {
					p.Weights[i], err = strconv.ParseFloat(w, 64)
				}
			}
		case "strategy":
			strategies = strategies[:0]
			for _, name := range strings.Split(val, ",") {
				s, perr := ParseStrategy(name)
				if perr != nil {
					err = perr
				}
				strategies = append(strategies, s)
			}
		default:
			err = fmt.Errorf("unknown argument")
		}
		if err != nil {
			t.Fatalf("line %d: %s=%s: %v", c.Line, key, val, err)
		}
	}
	return p, strategies
}

// parseCandidates reads lines of the form
//
//	id tier day [sim=x] [simb=x] [ent=k/n] [rank=r] [permanent=true] : text A [|| text B]
//
// with day "-" for none; tokens are counted with countTokens.
func parseCandidates(t *testing.T, c *golden.Case) []Candidate {
	t.Helper()
	var lines []string
	if c.Input != "" {
		lines = strings.Split(c.Input, "\n")
	}
	var cands []Candidate
	for i, l := range lines {
		head, text, ok := strings.Cut(l, " :")
		fields := strings.Fields(head)
		if !ok || len(fields) < 3 {
			t.Fatalf("line %d: want `id tier day [k=v...] : text`, got %q", c.Line+1+i, l)
		}
		cand := Candidate{ID: fields[0], Rank: i}
		cand.Tier, _ = base.ParseTier(fields[1]) // invalid tiers stay TierNone, for error cases
		if fields[2] != "-" {
			d, err := base.ParseDay(fields[2])
			if err != nil {
				t.Fatalf("line %d: %v", c.Line+1+i, err)
			}
			cand.Day = d
		} else {
			cand.Day = base.NoDay
		}
		textA, textB, hasB := strings.Cut(text, " || ")
		cand.A = State{Text: strings.TrimSpace(textA)}
		cand.A.Tokens = countTokens(cand.A.Text)
		simB := ""
		for _, kv := range fields[3:] {
			key, val, _ := strings.Cut(kv, "=")
			var err error
			switch key {
			case "sim":
				cand.A.Sim, err = strconv.ParseFloat(val, 64)
			case "simb":
				simB = val
			case "rank":
				cand.Rank, err = strconv.Atoi(val)
			case "ent":
				_, err = fmt.Sscanf(val, "%d/%d", &cand.NEntity, &cand.NTotal)
			case "permanent":
				cand.Permanent, err = strconv.ParseBool(val)
			default:
				err = fmt.Errorf("unknown attribute")
			}
			if err != nil {
				t.Fatalf("line %d: %s: %v", c.Line+1+i, kv, err)
			}
		}
		if hasB {
			b := State{Text: strings.TrimSpace(textB), Sim: cand.A.Sim}
			b.Tokens = countTokens(b.Text)
			if simB != "" {
				b.Sim, _ = strconv.ParseFloat(simB, 64)
			}
			cand.B = &b
		}
		cands = append(cands, cand)
	}
	return cands
}

func dumpResult(w *strings.Builder, cands []Candidate, r *Result) {
	quota := "met"
	if !r.QuotaMet {
		quota = "UNMET"
	}
	if r.QuotaPrice > 0 {
		quota += fmt.Sprintf(" quota-price=%.4g", r.QuotaPrice)
	}
	fmt.Fprintf(w, "%s budget=%d used=%d utility=%.4g quota=%s\n", r.Strategy, r.Budget, r.TokensUsed, r.Utility, quota)
	for _, q := range r.Quota {
		met := "met"
		if !q.Met {
			met = "UNMET"
		}
		fmt.Fprintf(w, "  quota %s present=%d want=%d got=%d %s\n", q.Tier, q.Present, q.Want, q.Got, met)
	}
	for _, it := range r.Items {
		day := it.Day.String()
		if day == "" {
			day = "-"
		}
		other := ""
		if it.Other != ReasonNone {
			other = " other=" + it.Other.String()
		}
		fmt.Fprintf(w, "  + %s %s %s %s tokens=%d u=%.4g d=%.4g why=%s%s | %s\n",
			it.ID, it.Tier, day, it.State, it.Tokens, it.Utility, it.Density, it.Why, other, it.Text)
	}
	for _, d := range r.Dropped {
		state := "-"
		if d.State != 0 {
			state = d.State.String()
		}
		fmt.Fprintf(w, "  - %s %s %s tokens=%d d=%.4g reason=%s\n", cands[d.Index].ID, d.Tier, state, d.Tokens, d.Density, d.Reason)
	}
}
