package pack

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
)

// benchCandidates makes n blocks shaped like a retrieval result: a third
// T1/T2 with a state B a fifth the size, 10-200 tokens each, dated over
// ten years.
func benchCandidates(n int) []Candidate {
	rng := rand.New(rand.NewPCG(11, 12))
	word := "word "
	cands := make([]Candidate, n)
	for i := range cands {
		tier := base.Tiers[rng.IntN(4)]
		tokens := 10 + rng.IntN(190)
		c := Candidate{
			ID: "doc-" + strings.Repeat("x", i%7), Tier: tier, Rank: i,
			Day: base.Day(17000 + rng.IntN(3650)),
			A:   State{Text: strings.Repeat(word, tokens), Tokens: tokens, Sim: rng.Float64()},
		}
		if tier == base.T1 || tier == base.T2 {
			bt := max(1, tokens/5)
			c.B = &State{Text: strings.Repeat(word, bt), Tokens: bt, Sim: rng.Float64()}
			c.NTotal = 1 + rng.IntN(5)
			c.NEntity = rng.IntN(c.NTotal + 1)
		}
		cands[i] = c
	}
	return cands
}

func benchPack(b *testing.B, n, budget int, s Strategy) {
	benchPackKmin(b, n, budget, s, DefaultKmin)
}

func benchPackKmin(b *testing.B, n, budget int, s Strategy, kmin int) {
	var pk Packer
	cands := benchCandidates(n)
	p := DefaultParams()
	p.Budget, p.Strategy, p.Kmin, p.Now = budget, s, kmin, base.Day(20700)
	p.Count = func(_ int, t string) int { return len(strings.Fields(t)) }
	b.ReportAllocs()
	for b.Loop() {
		if _, err := pk.Pack(cands, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPackEbm1000Fresh is Pack without a reused Packer: every call
// allocates its scratch memory.
func BenchmarkPackEbm1000Fresh(b *testing.B) {
	cands := benchCandidates(1000)
	p := DefaultParams()
	p.Now = base.Day(20700)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Pack(cands, p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPackEbm1000(b *testing.B) { benchPack(b, 1000, 512, Ebm) }

// Away from the target's setting: every block fits, or ten and a
// hundred quota places per tier.
func BenchmarkPackEbm1000Budget100k(b *testing.B) { benchPack(b, 1000, 100000, Ebm) }
func BenchmarkPackEbm1000Kmin10(b *testing.B)     { benchPackKmin(b, 1000, 512, Ebm, 10) }
func BenchmarkPackEbm1000Kmin100(b *testing.B)    { benchPackKmin(b, 1000, 512, Ebm, 100) }

func BenchmarkPackEbm100(b *testing.B)          { benchPack(b, 100, 512, Ebm) }
func BenchmarkPackExact100(b *testing.B)        { benchPack(b, 100, 512, Exact) }
func BenchmarkPackExact1000(b *testing.B)       { benchPack(b, 1000, 512, Exact) }
func BenchmarkPackExact1000At2048(b *testing.B) { benchPack(b, 1000, 2048, Exact) }
func BenchmarkPackFIFO1000(b *testing.B)        { benchPack(b, 1000, 512, FIFO) }
func BenchmarkPackSemantic1000(b *testing.B)    { benchPack(b, 1000, 512, Semantic) }
func BenchmarkPackUniform1000(b *testing.B)     { benchPack(b, 1000, 512, Uniform) }

// BenchmarkPackExactNearBound is 1000 candidates at budget 8000: about
// 16M table cells, just under MaxExactCells.
func BenchmarkPackExactNearBound(b *testing.B) { benchPack(b, 1000, 8000, Exact) }
