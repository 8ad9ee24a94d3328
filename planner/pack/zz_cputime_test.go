package pack

import (
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
)

func threadCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestZZCPUTime(t *testing.T) {
	runtime.LockOSThread()
	for _, tc := range []struct {
		n, budget int
		s         Strategy
		iters     int
	}{{1000, 512, Ebm, 3000}, {100, 512, Ebm, 20000}, {1000, 512, FIFO, 3000}, {1000, 512, Semantic, 3000}, {1000, 512, Uniform, 100}, {100, 512, Exact, 300}, {1000, 512, Exact, 30}, {1000, 2048, Exact, 10}} {
		cands := benchCandidates(tc.n)
		p := DefaultParams()
		p.Budget, p.Strategy, p.Now = tc.budget, tc.s, 20700
		p.Count = countTokens
		best := time.Hour
		for rep := 0; rep < 5; rep++ {
			start := threadCPU()
			for i := 0; i < tc.iters; i++ {
				Pack(cands, p)
			}
			best = min(best, (threadCPU()-start)/time.Duration(tc.iters))
		}
		t.Logf("%s n=%d budget=%d: %v cpu/op", tc.s, tc.n, tc.budget, best)
	}
}

func BenchmarkZZSort1500(b *testing.B) {
	src := make([]uint64, 1500)
	for i := range src {
		src[i] = uint64(i) * 0x9E3779B97F4A7C15
	}
	buf := make([]uint64, 1500)
	for b.Loop() {
		copy(buf, src)
		slices.Sort(buf)
	}
}
