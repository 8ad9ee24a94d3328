package packbench

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"

	"github.com/medkb/medkb/internal/text"
)

// DefaultNoiseRatio is the paper's 1:12 signal:noise.
const DefaultNoiseRatio = 12

// Shares of the three kinds of noise, in tenths (the paper's 40/30/30).
const (
	boilerplateTenths = 4
	fragmentTenths    = 3
)

// AddNoise returns copies of the cases with ratio noise segments per
// signal segment appended and all segments shuffled. Of the noise, 40 %
// is templated follow-up boilerplate in the case's language, 30 % are
// fragments of other cases' segments, and 30 % splices of fragments of
// two other cases. Each noise segment takes the date of a random dated
// segment of its own case (none when the case has no dates): noise mixed
// into a record is as old as the record, so time decay neither spares nor
// penalises it, where undated noise would never decay. A case's noise
// depends only on seed, its own id and the other cases, so it is the same
// on every run; with no other case to borrow from, all noise is
// boilerplate. The input is not modified.
func AddNoise(cases []Case, ratio int, seed int64) []Case {
	langs := make([]string, len(cases))
	for i := range cases {
		langs[i] = caseLang(&cases[i])
	}
	out := make([]Case, len(cases))
	for i := range cases {
		c := cases[i]
		rng := rand.New(rand.NewPCG(uint64(seed), idHash(c.ID)))
		nSignal := 0
		for _, s := range c.Segments {
			if s.Signal {
				nSignal++
			}
		}
		n := ratio * nSignal
		nBoiler := (n*boilerplateTenths + 5) / 10
		nFrag := (n*fragmentTenths + 5) / 10
		donors := donorCases(cases, langs, i)
		if len(donors) == 0 {
			nBoiler, nFrag = n, 0
		}
		segs := make([]Segment, 0, len(c.Segments)+n)
		var dates []string
		for _, s := range c.Segments {
			if s.Time != "" {
				dates = append(dates, s.Time)
			}
		}
		segs = append(segs, c.Segments...)
		for k := range n {
			var t string
			switch {
			case k < nBoiler:
				t = boilerplate(rng, langs[i])
			case k < nBoiler+nFrag:
				t = fragment(rng, &cases[donors[rng.IntN(len(donors))]], 0.4, 0.8)
			default:
				a := donors[rng.IntN(len(donors))]
				b := donors[rng.IntN(len(donors))]
				t = splice(fragment(rng, &cases[a], 0.3, 0.5), fragment(rng, &cases[b], 0.3, 0.5))
			}
			noise := Segment{ID: fmt.Sprintf("%s/noise-%03d", c.ID, k), Text: t}
			if len(dates) > 0 {
				noise.Time = dates[rng.IntN(len(dates))]
			}
			segs = append(segs, noise)
		}
		rng.Shuffle(len(segs), func(x, y int) { segs[x], segs[y] = segs[y], segs[x] })
		c.Segments = segs
		out[i] = c
	}
	return out
}

func idHash(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}

func caseLang(c *Case) string {
	var sb strings.Builder
	sb.WriteString(c.Query)
	for _, s := range c.Segments {
		sb.WriteString(" ")
		sb.WriteString(s.Text)
	}
	return text.Lang(sb.String())
}

// donorCases lists the other cases noise may borrow from: those in the
// same language when there are any, else all others.
func donorCases(cases []Case, langs []string, self int) []int {
	var same, all []int
	for j := range cases {
		if j == self || len(cases[j].Segments) == 0 {
			continue
		}
		all = append(all, j)
		if langs[j] == langs[self] {
			same = append(same, j)
		}
	}
	if len(same) > 0 {
		return same
	}
	return all
}

// fragment cuts a random contiguous piece, lo..hi of its length, out of a
// random segment of c: words for space-separated text, characters for
// Chinese.
func fragment(rng *rand.Rand, c *Case, lo, hi float64) string {
	s := c.Segments[rng.IntN(len(c.Segments))].Text
	units, sep := strings.Fields(s), " "
	if text.Lang(s) == "zh" {
		units, sep = strings.Split(strings.Join(units, ""), ""), ""
	}
	n := len(units)
	k := max(1, int(float64(n)*(lo+(hi-lo)*rng.Float64())))
	start := rng.IntN(n - k + 1)
	return strings.Join(units[start:start+k], sep)
}

// splice joins two fragments as a cross-department note would run them
// together.
func splice(a, b string) string {
	if text.Lang(a) == "zh" && text.Lang(b) == "zh" {
		return a + b
	}
	return a + " " + b
}
