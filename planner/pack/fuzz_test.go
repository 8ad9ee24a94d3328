package pack

import (
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// decodeCandidates turns fuzz bytes into up to 10 candidates, 7 bytes each:
// tier, A tokens, B tokens (0: no state B), A sim, B sim, entity counts, day.
func decodeCandidates(data []byte) []Candidate {
	var cands []Candidate
	for len(data) >= 7 && len(cands) < 10 {
		c := Candidate{
			ID:   string(rune('a' + len(cands))),
			Tier: base.Tiers[data[0]%4],
			A:    State{Text: "a b c", Tokens: int(data[1] % 40), Sim: float64(int8(data[3])) / 100},
			Rank: int(data[0] / 4),
			Day:  base.Day(int(data[6]) * 30),
		}
		if data[6] == 0 {
			c.Day = base.NoDay
		}
		if (c.Tier == base.T1 || c.Tier == base.T2) && data[2] != 0 {
			c.B = &State{Text: "a b", Tokens: int(data[2] % 20), Sim: float64(int8(data[4])) / 100}
			c.NTotal = int(data[5] % 8)
			c.NEntity = int(data[5]/8) % (c.NTotal + 1)
		}
		cands = append(cands, c)
		data = data[7:]
	}
	return cands
}

func FuzzPack(f *testing.F) {
	f.Add(uint8(30), uint8(1), []byte{0, 12, 4, 50, 60, 9, 10, 3, 30, 0, 90, 0, 0, 0})
	f.Add(uint8(5), uint8(3), []byte{1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 39, 0, 127, 0, 0, 255})
	f.Fuzz(func(t *testing.T, budget, kmin uint8, data []byte) {
		cands := decodeCandidates(data)
		p := DefaultParams()
		p.Budget, p.Kmin, p.Lambda, p.Now = int(budget), int(kmin%4), 1, base.Day(7000)
		p.Count = countBlockTokens
		var short, util = 0, 0.0
		for _, s := range []Strategy{Exact, Ebm, FIFO, Semantic, Uniform} {
			p.Strategy = s
			r, err := Pack(cands, p)
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			checkInvariants(t, cands, p, r)
			switch s {
			case Exact:
				short, util = bruteForce(cands, p)
				if shortfall(r) != short || r.Utility < util-1e-9 || r.Utility > util+1e-9 {
					t.Fatalf("exact (%d, %v) differs from brute force (%d, %v)", shortfall(r), r.Utility, short, util)
				}
			case Ebm, FIFO, Semantic:
				if shortfall(r) < short || (shortfall(r) == short && r.Utility > util+1e-9) {
					t.Fatalf("%s beats exact", s)
				}
			}
		}
	})
}
