package gatebench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/medkb/medkb/internal/gate"
)

// MaskSteps is how many masking steps the curve has (0 to 5 sentences
// masked).
const MaskSteps = 6

// Seed fixes the masking order.
const Seed = 1

// MedQA reads the vignettes (the "question" field) of a MedQA JSON Lines
// file; n > 0 keeps the first n.
func MedQA(path string, n int) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var out []string
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var v struct {
			Question string `json:"question"`
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if strings.TrimSpace(v.Question) == "" {
			return nil, fmt.Errorf("%s:%d: no question", path, line)
		}
		out = append(out, v.Question)
		if n > 0 && len(out) == n {
			break
		}
	}
	return out, sc.Err()
}

// PubMedQA reads the questions of PubMedQA's ori_pqal.json and, for each,
// the question followed by its abstract's context paragraphs, in PMID
// order.
func PubMedQA(path string) (questions, withContext []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, err
	}
	var set map[string]struct {
		Question string   `json:"QUESTION"`
		Contexts []string `json:"CONTEXTS"`
	}
	if err := json.Unmarshal(b, &set); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	ids := make([]string, 0, len(set))
	for id := range set {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		e := set[id]
		questions = append(questions, e.Question)
		withContext = append(withContext, e.Question+"\n"+strings.Join(e.Contexts, "\n"))
	}
	return questions, withContext, nil
}

// Report is what the benchmark measured.
type Report struct {
	Vignettes  int
	MaskMean   []float64 // mean score with 0..MaskSteps-1 sentences masked (test half)
	Monotone   float64   // share of test vignettes whose score never rose
	Calibrated gate.Thresholds
	Check      gate.Thresholds // the defaults' shares on the test half
	Sets       []Set
}

// Set is the decisions on one set of inputs, with the defaults.
type Set struct {
	Name      string
	N         int
	Median    float64
	Decisions map[string]int
}

// Run measures the gate on MedQA vignettes and, when given, PubMedQA
// questions (pubQ) and questions with their abstracts (pubQC).
func Run(vignettes, pubQ, pubQC []string) Report {
	var dev, test []gate.Case
	for i, v := range vignettes {
		c := gate.ReadCase(v, nil)
		if i%2 == 0 {
			dev = append(dev, c)
		} else {
			test = append(test, c)
		}
	}
	r := Report{Vignettes: len(vignettes)}
	r.MaskMean, r.Monotone = gate.MaskCurve(test, MaskSteps, Seed)
	r.Calibrated = gate.Calibrate(dev, Seed)
	r.Check = gate.Apply(test, Seed, gate.DefaultTheta1, gate.DefaultTheta2)
	r.Sets = append(r.Sets, decide("MedQA vignettes (test half)", scores(test)))
	if len(pubQ) > 0 {
		r.Sets = append(r.Sets, decide("PubMedQA questions", readAll(pubQ)))
		r.Sets = append(r.Sets, decide("PubMedQA question + abstract", readAll(pubQC)))
	}
	return r
}

func readAll(inputs []string) []float64 {
	out := make([]float64, len(inputs))
	for i, in := range inputs {
		out[i] = gate.Score(gate.ReadCase(in, nil))
	}
	return out
}

func scores(cases []gate.Case) []float64 {
	out := make([]float64, len(cases))
	for i, c := range cases {
		out[i] = gate.Score(c)
	}
	return out
}

func decide(name string, s []float64) Set {
	return Set{Name: name, N: len(s), Median: gate.Median(s), Decisions: gate.Decisions(s, gate.DefaultTheta1, gate.DefaultTheta2)}
}

// Write prints r as a small report.
func (r Report) Write(w io.Writer) {
	fmt.Fprintf(w, "completeness gate: MinUnits %d, weights A %g B %g C %g, defaults theta1 %g theta2 %g\n",
		gate.MinUnits, gate.WeightA, gate.WeightB, gate.WeightC, gate.DefaultTheta1, gate.DefaultTheta2)
	fmt.Fprintf(w, "masking (%d MedQA vignettes, odd half, random order, seed %d): mean I", r.Vignettes/2, Seed)
	for k, m := range r.MaskMean {
		fmt.Fprintf(w, " %d:%.3f", k, m)
	}
	fmt.Fprintf(w, "; never rises for %.1f%% of vignettes\n", 100*r.Monotone)
	c := r.Calibrated
	fmt.Fprintf(w, "calibrated on the even half (tolerance %g): theta1 %.2f (answers %.1f%% full, %.1f%% half-masked), theta2 %.2f (warns %.1f%% without A, %.1f%% half-masked)\n",
		gate.Tolerance, c.Theta1, 100*c.FullAnswer, 100*c.HalfAnswer, c.Theta2, 100*c.SparseWarn, 100*c.HalfWarn)
	k := r.Check
	fmt.Fprintf(w, "defaults on the odd half: answers %.1f%% full, %.1f%% half-masked; warns %.1f%% without A, %.1f%% half-masked\n",
		100*k.FullAnswer, 100*k.HalfAnswer, 100*k.SparseWarn, 100*k.HalfWarn)
	fmt.Fprintf(w, "%-32s %6s %8s %8s %8s %8s\n", "set", "n", "median", gate.Answer, gate.Retrieve, gate.Warn)
	for _, s := range r.Sets {
		fmt.Fprintf(w, "%-32s %6d %8.3f %8s %8s %8s\n", s.Name, s.N, s.Median,
			pct(s.Decisions[gate.Answer], s.N), pct(s.Decisions[gate.Retrieve], s.N), pct(s.Decisions[gate.Warn], s.N))
	}
}

func pct(n, of int) string { return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(max(of, 1))) }
