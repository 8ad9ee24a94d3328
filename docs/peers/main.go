// Command peers times medkb's exact vector scan beside chromem-go's
// exhaustive query on the same seeded random unit vectors; peers.mjs times
// hnswlib-node's brute force on the same file. run.sh runs them all and
// prints one table (see README.md).
//
//	peers gen   -dir D -n 100000 -dim 384 -queries 200 -seed 1
//	peers run   -dir D -engine medkb|medkb-int8|chromem -rounds 2
//	peers table -in results.jsonl
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"
)

// K is the number of neighbours every engine returns and recall is taken at.
const K = 10

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: peers gen|run|table [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	dir := fs.String("dir", "peers-data", "folder for vectors.bin and truth.bin")
	var err error
	switch os.Args[1] {
	case "gen":
		n := fs.Int("n", 100000, "vectors")
		dim := fs.Int("dim", 384, "dimension")
		nq := fs.Int("queries", 200, "query vectors")
		seed := fs.Uint64("seed", 1, "random seed")
		fs.Parse(os.Args[2:])
		err = gen(*dir, *n, *dim, *nq, *seed)
	case "run":
		engine := fs.String("engine", "medkb", "medkb (exact float32 scan), medkb-int8 (int8 scan, exact rescoring) or chromem")
		rounds := fs.Int("rounds", 2, "timed passes over the queries (after one warm-up pass)")
		fs.Parse(os.Args[2:])
		err = run(*dir, *engine, *rounds)
	case "table":
		in := fs.String("in", "-", "JSON lines from run and peers.mjs")
		fs.Parse(os.Args[2:])
		err = table(*in)
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "peers:", err)
		os.Exit(1)
	}
}

// Data is the content of vectors.bin: little-endian, a 24-byte header
// ("MKBPEERS", then n, dim, queries as uint32, then 4 zero bytes), n*dim
// float32 for the corpus, queries*dim float32 for the queries. Every vector
// has unit length.
type Data struct {
	N, Dim, Q int
	Vecs      []float32
	Queries   []float32
}

const magic = "MKBPEERS"

func gen(dir string, n, dim, nq int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 0x6d65646b62))
	unit := func(count int) []float32 {
		v := make([]float32, count*dim)
		for i := range count {
			row := v[i*dim : (i+1)*dim]
			var ss float64
			for j := range row {
				x := rng.NormFloat64()
				row[j] = float32(x)
				ss += x * x
			}
			inv := 1 / math.Sqrt(ss)
			for j := range row {
				row[j] = float32(float64(row[j]) * inv)
			}
		}
		return v
	}
	d := &Data{N: n, Dim: dim, Q: nq, Vecs: unit(n), Queries: unit(nq)}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeData(filepath.Join(dir, "vectors.bin"), d); err != nil {
		return err
	}
	start := time.Now()
	truth := exact(d)
	fmt.Fprintf(os.Stderr, "peers: %d x %d vectors, %d queries; float64 ground truth in %v\n", n, dim, nq, time.Since(start).Round(time.Millisecond))
	return writeTruth(filepath.Join(dir, "truth.bin"), truth)
}

// exact returns the ids of each query's K best dot products, computed in
// float64 by a plain loop that shares no code with any engine measured.
func exact(d *Data) [][]int {
	out := make([][]int, d.Q)
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			type hit struct {
				id    int
				score float64
			}
			for qi := range next {
				q := d.Queries[qi*d.Dim : (qi+1)*d.Dim]
				best := make([]hit, 0, K+1)
				for i := range d.N {
					row := d.Vecs[i*d.Dim : (i+1)*d.Dim]
					var s float64
					for j, x := range row {
						s += float64(x) * float64(q[j])
					}
					if len(best) == K && s <= best[K-1].score {
						continue
					}
					at := len(best)
					for at > 0 && best[at-1].score < s {
						at--
					}
					best = slices.Insert(best, at, hit{i, s})
					if len(best) > K {
						best = best[:K]
					}
				}
				ids := make([]int, len(best))
				for i, h := range best {
					ids[i] = h.id
				}
				out[qi] = ids
			}
		})
	}
	for qi := range d.Q {
		next <- qi
	}
	close(next)
	wg.Wait()
	return out
}

func writeData(path string, d *Data) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(magic)
	for _, v := range []uint32{uint32(d.N), uint32(d.Dim), uint32(d.Q), 0} {
		binary.Write(w, binary.LittleEndian, v)
	}
	binary.Write(w, binary.LittleEndian, d.Vecs)
	binary.Write(w, binary.LittleEndian, d.Queries)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func readData(path string) (*Data, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < 24 || string(b[:8]) != magic {
		return nil, fmt.Errorf("%s: not a peers vector file", path)
	}
	u := func(i int) int { return int(binary.LittleEndian.Uint32(b[8+4*i:])) }
	d := &Data{N: u(0), Dim: u(1), Q: u(2)}
	floats := func(off, count int) []float32 {
		v := make([]float32, count)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[off+4*i:]))
		}
		return v
	}
	if want := 24 + 4*(d.N+d.Q)*d.Dim; len(b) != want {
		return nil, fmt.Errorf("%s: %d bytes, want %d", path, len(b), want)
	}
	d.Vecs = floats(24, d.N*d.Dim)
	d.Queries = floats(24+4*d.N*d.Dim, d.Q*d.Dim)
	return d, nil
}

// truth.bin: queries and K as uint32, then queries*K uint32 ids, best first.
func writeTruth(path string, truth [][]int) error {
	buf := binary.LittleEndian.AppendUint32(nil, uint32(len(truth)))
	buf = binary.LittleEndian.AppendUint32(buf, K)
	for _, ids := range truth {
		for i := range K {
			id := uint32(math.MaxUint32) // fewer than K vectors
			if i < len(ids) {
				id = uint32(ids[i])
			}
			buf = binary.LittleEndian.AppendUint32(buf, id)
		}
	}
	return os.WriteFile(path, buf, 0o644)
}

func readTruth(path string) ([][]int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	q, k := int(binary.LittleEndian.Uint32(b)), int(binary.LittleEndian.Uint32(b[4:]))
	if len(b) != 8+4*q*k {
		return nil, fmt.Errorf("%s: bad length", path)
	}
	out := make([][]int, q)
	for i := range out {
		for j := range k {
			if id := binary.LittleEndian.Uint32(b[8+4*(i*k+j):]); id != math.MaxUint32 {
				out[i] = append(out[i], int(id))
			}
		}
	}
	return out, nil
}

// Result is one engine's line, the same shape peers.mjs prints.
type Result struct {
	Engine       string    `json:"engine"`
	Threads      string    `json:"threads"`
	N            int       `json:"n"`
	Dim          int       `json:"dim"`
	Queries      int       `json:"queries"`
	Rounds       int       `json:"rounds"`
	MedianMS     float64   `json:"median_ms"`
	P99MS        float64   `json:"p99_ms"`
	RoundMedians []float64 `json:"round_medians_ms"`
	Recall       float64   `json:"recall_at_10"`
	LoadS        float64   `json:"load_s"`
}

// searcher answers one query with the ids of its K best vectors, best first.
type searcher func(q []float32) []int

func run(dir, engine string, rounds int) error {
	d, err := readData(filepath.Join(dir, "vectors.bin"))
	if err != nil {
		return err
	}
	truth, err := readTruth(filepath.Join(dir, "truth.bin"))
	if err != nil {
		return err
	}
	start := time.Now()
	var search searcher
	var threads string
	switch engine {
	case "medkb", "medkb-int8":
		search, err = loadMedkb(d, engine == "medkb-int8")
		threads = fmt.Sprintf("GOMAXPROCS=%d", runtime.GOMAXPROCS(0))
	case "chromem":
		search, err = loadChromem(d)
		threads = fmt.Sprintf("GOMAXPROCS=%d, %d goroutines", runtime.GOMAXPROCS(0), runtime.NumCPU())
	default:
		err = fmt.Errorf("unknown engine %q", engine)
	}
	if err != nil {
		return err
	}
	r := Result{Engine: engine, Threads: threads, N: d.N, Dim: d.Dim, Queries: d.Q, Rounds: rounds,
		LoadS: time.Since(start).Seconds()}
	query := func(i int) []float32 { return d.Queries[i*d.Dim : (i+1)*d.Dim] }

	// Warm-up pass, which also gives recall (the engines are deterministic).
	found := 0
	for i := range d.Q {
		found += overlap(search(query(i)), truth[i])
	}
	r.Recall = float64(found) / float64(d.Q*K)

	var all []float64
	for range rounds {
		lat := make([]float64, d.Q)
		for i := range d.Q {
			t := time.Now()
			search(query(i))
			lat[i] = float64(time.Since(t).Nanoseconds()) / 1e6
		}
		all = append(all, lat...)
		r.RoundMedians = append(r.RoundMedians, round3(quantile(lat, 0.5)))
	}
	r.MedianMS, r.P99MS = round3(quantile(all, 0.5)), round3(quantile(all, 0.99))
	return json.NewEncoder(os.Stdout).Encode(r)
}

// overlap counts the ids of got that are in want.
func overlap(got, want []int) int {
	n := 0
	for _, id := range got {
		if slices.Contains(want, id) {
			n++
		}
	}
	return n
}

// quantile returns the q-quantile of xs by the nearest-rank method.
func quantile(xs []float64, q float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// table prints one line per engine and thread setting, over all the runs
// in the input (a run ends where an engine's line repeats): the median of
// the runs' medians and of their p99s, each run's median, the lowest
// recall, and the ratio to medkb on one core and on all cores, taken run by
// run (this engine's median over medkb's in the same run) and then the
// median of those ratios, so that load that changes between runs cancels.
func table(in string) error {
	var r io.Reader = os.Stdin
	if in != "-" {
		f, err := os.Open(in)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	type row struct {
		engine, threads string
		medians, p99s   []float64
		recall          float64
	}
	var rows []*row
	byKey := map[string]*row{}
	dec := json.NewDecoder(r)
	for {
		var x Result
		if err := dec.Decode(&x); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
		key := x.Engine + "|" + x.Threads
		w := byKey[key]
		if w == nil {
			w = &row{engine: x.Engine, threads: x.Threads, recall: 1}
			byKey[key] = w
			rows = append(rows, w)
		}
		w.medians = append(w.medians, x.MedianMS)
		w.p99s = append(w.p99s, x.P99MS)
		w.recall = min(w.recall, x.Recall)
	}
	// The baselines: medkb on one core and on all of them.
	var one, all *row
	for _, w := range rows {
		if w.engine == "medkb" && w.threads == "GOMAXPROCS=1" {
			one = w
		} else if w.engine == "medkb" {
			all = w
		}
	}
	ratio := func(w, base *row) string {
		if base == nil {
			return "-"
		}
		var rs []float64
		for i := range min(len(w.medians), len(base.medians)) {
			rs = append(rs, w.medians[i]/base.medians[i])
		}
		return fmt.Sprintf("%.1fx", quantile(rs, 0.5))
	}
	fmt.Printf("%-13s %-28s %9s %9s %-26s %9s %10s %10s\n",
		"engine", "threads", "median ms", "p99 ms", "medians of the runs", "recall@10", "/ medkb 1", "/ medkb all")
	for _, w := range rows {
		fmt.Printf("%-13s %-28s %9.2f %9.2f %-26s %9.3f %10s %10s\n",
			w.engine, w.threads, quantile(w.medians, 0.5), quantile(w.p99s, 0.5), fmt.Sprint(w.medians),
			w.recall, ratio(w, one), ratio(w, all))
	}
	return nil
}
