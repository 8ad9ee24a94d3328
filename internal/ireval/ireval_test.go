package ireval

import (
	"bufio"
	"errors"
	"math"
	"strings"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestNDCG(t *testing.T) {
	grades := map[string]int{"a": 2, "b": 1, "c": 1, "z": 0}
	// ideal: 2, 1, 1 -> 2/1 + 1/log2(3) + 1/2
	ideal := 2 + 1/math.Log2(3) + 0.5
	tests := []struct {
		name   string
		ranked []string
		k      int
		want   float64
	}{
		{"perfect", []string{"a", "b", "c"}, 10, 1},
		{"perfect with tail", []string{"a", "c", "b", "x", "z"}, 10, 1},
		{"reversed", []string{"c", "b", "a"}, 10, (1 + 1/math.Log2(3) + 2.0/2) / ideal},
		{"cut at 1", []string{"x", "a"}, 1, 0},
		{"second place", []string{"x", "a"}, 2, (2 / math.Log2(3)) / (2 + 1/math.Log2(3))},
		{"unjudged only", []string{"x", "y"}, 10, 0},
		{"empty", nil, 10, 0},
	}
	for _, tt := range tests {
		if got := NDCG(tt.ranked, grades, tt.k); !near(got, tt.want) {
			t.Errorf("%s: NDCG = %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := NDCG([]string{"a"}, map[string]int{"a": 0}, 10); got != 0 {
		t.Errorf("no positive grade: NDCG = %v, want 0", got)
	}
}

func TestRecall(t *testing.T) {
	grades := map[string]int{"a": 2, "b": 1, "c": 1, "z": 0}
	tests := []struct {
		ranked []string
		k, min int
		want   float64
	}{
		{[]string{"a", "x", "b"}, 100, 1, 2.0 / 3},
		{[]string{"a", "x", "b"}, 2, 1, 1.0 / 3},
		{[]string{"a", "x", "b"}, 100, 2, 1},
		{[]string{"z"}, 100, 0, 0}, // grade 0 never counts
		{nil, 100, 1, 0},
	}
	for _, tt := range tests {
		if got := Recall(tt.ranked, grades, tt.k, tt.min); !near(got, tt.want) {
			t.Errorf("Recall(%v, k=%d, min=%d) = %v, want %v", tt.ranked, tt.k, tt.min, got, tt.want)
		}
	}
	if got := Recall([]string{"a"}, map[string]int{}, 10, 1); got != 0 {
		t.Errorf("nothing relevant: Recall = %v, want 0", got)
	}
}

func TestMean(t *testing.T) {
	q := Qrels{"q1": {"a": 1}, "q2": {"b": 1}}
	runs := map[string][]string{"q1": {"a"}} // q2 returned nothing
	got := Mean(q, runs, func(r []string, g map[string]int) float64 { return Recall(r, g, 10, 1) })
	if got != 0.5 {
		t.Errorf("Mean = %v, want 0.5", got)
	}
}

func TestReadQrels(t *testing.T) {
	in := "q1 0 d1 2\n\nq1\t0\td2\t1\nq2 0 d1 0\nq1 0 d1 1\n"
	q, err := ReadQrels(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(q) != 2 || q["q1"]["d1"] != 1 || q["q1"]["d2"] != 1 || q["q2"]["d1"] != 0 || len(q["q1"]) != 2 {
		t.Errorf("ReadQrels = %v", q)
	}
	for _, bad := range []string{"q1 0 d1\n", "q1 0 d1 high\n", "q1 0 d1 2 extra\n"} {
		if _, err := ReadQrels(strings.NewReader(bad)); !errors.Is(err, ErrSyntax) {
			t.Errorf("ReadQrels(%q) error = %v, want ErrSyntax", bad, err)
		}
	}
}

func TestReadPairs(t *testing.T) {
	var ids, texts []string
	err := ReadPairs(strings.NewReader("MED-1\tsome text\there\n\nMED-2\t\n"), func(id, text string) error {
		ids = append(ids, id)
		texts = append(texts, text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ids, ",") != "MED-1,MED-2" || texts[0] != "some text\there" || texts[1] != "" {
		t.Errorf("ReadPairs: ids %q texts %q", ids, texts)
	}
	for _, bad := range []string{"no tab\n", "\ttext without id\n"} {
		if err := ReadPairs(strings.NewReader(bad), func(string, string) error { return nil }); !errors.Is(err, ErrSyntax) {
			t.Errorf("ReadPairs(%q) error = %v, want ErrSyntax", bad, err)
		}
	}
	stop := errors.New("stop")
	if err := ReadPairs(strings.NewReader("a\tb\nc\td\n"), func(string, string) error { return stop }); err != stop {
		t.Errorf("callback error = %v, want it returned as is", err)
	}
}

// FuzzReadQrels checks that any input either parses into judgements that
// each come from a well-formed line, or fails with ErrSyntax; never panics.
func FuzzReadQrels(f *testing.F) {
	f.Add("q1 0 d1 2\nq1 0 d2 1\n")
	f.Add("q 0 d -3\n\n\n")
	f.Add("q 0 d 99999999999999999999\n")
	f.Add("a b c\n")
	f.Fuzz(func(t *testing.T, in string) {
		q, err := ReadQrels(strings.NewReader(in))
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, bufio.ErrTooLong) {
				t.Fatalf("error %v is not ErrSyntax", err)
			}
			return
		}
		n := 0
		for _, docs := range q {
			n += len(docs)
		}
		lines := 0
		for _, l := range strings.Split(in, "\n") {
			if len(strings.Fields(l)) == 4 {
				lines++
			}
		}
		if n > lines {
			t.Fatalf("%d judgements from %d lines", n, lines)
		}
	})
}

// FuzzReadPairs checks that ReadPairs hands fn, in order, exactly the
// non-blank lines up to the first malformed one, each split at its first
// tab into a non-empty id and the text, and fails only with ErrSyntax on
// a line without a tab or id, or with bufio.ErrTooLong.
func FuzzReadPairs(f *testing.F) {
	f.Add("MED-10\tStatin use and breast cancer survival\nMED-14\tStatins and cancer\n")
	f.Add("PLAIN-1\tDo cholesterol statin drugs cause breast cancer?\r\n\r\nPLAIN-2\ttab\tinside\r\n")
	f.Add("Q1\t感冒发热怎么办\n  \nQ2\t风寒感冒证的治法\nQ3\t\n")
	f.Add("D1\tok\nno tab here\nD2\tnever read\n")
	f.Add("\tno id\n")
	f.Fuzz(func(t *testing.T, in string) {
		var want []string
		for _, l := range strings.Split(in, "\n") {
			if l = strings.TrimSuffix(l, "\r"); strings.TrimSpace(l) != "" {
				want = append(want, l)
			}
		}
		n := 0
		err := ReadPairs(strings.NewReader(in), func(id, text string) error {
			if id == "" || strings.Contains(id, "\t") {
				t.Fatalf("pair %d: id %q is empty or holds a tab", n, id)
			}
			if n >= len(want) || id+"\t"+text != want[n] {
				t.Fatalf("pair %d (%q, %q) is not non-blank line %d", n, id, text, n)
			}
			n++
			return nil
		})
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, bufio.ErrTooLong) {
				t.Fatalf("error %v is not ErrSyntax", err)
			}
			if errors.Is(err, ErrSyntax) && (n >= len(want) || strings.Contains(want[n], "\t") && !strings.HasPrefix(want[n], "\t")) {
				t.Fatalf("ErrSyntax %v after %d good lines of %d", err, n, len(want))
			}
			return
		}
		if n != len(want) {
			t.Fatalf("%d pairs from %d non-blank lines", n, len(want))
		}
	})
}
