package vector

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"
)

func TestZZMeasure(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	rng := rand.New(rand.NewPCG(1, 2))
	n, dim := 100_000, 384
	ix := New(dim)
	ix.Load(randomSlots(n), randomUnit(rng, n, dim))
	q := randomUnit(rng, 1, dim)
	type cfg struct {
		name string
		k    kernel
		w    int
	}
	cfgs := []cfg{{"matmul1", scoreSIMD, 1}, {"matmul2", scoreSIMD, 2}, {"dot1", scoreDot, 1}, {"dot2", scoreDot, 2}, {"go1", scoreGo, 1}, {"go2", scoreGo, 2}}
	times := make([][]time.Duration, len(cfgs))
	for round := 0; round < 30; round++ {
		for i, c := range cfgs {
			ix.kernel, ix.workers = c.k, c.w
			for range 3 {
				s := time.Now()
				ix.Search(q, 10, nil)
				times[i] = append(times[i], time.Since(s))
			}
		}
	}
	for i, c := range cfgs {
		slices.Sort(times[i])
		fmt.Printf("%-8s min %6.2fms p10 %6.2fms median %6.2fms\n", c.name, ms(times[i][0]), ms(times[i][len(times[i])/10]), ms(times[i][len(times[i])/2]))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
