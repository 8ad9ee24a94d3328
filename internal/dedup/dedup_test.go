package dedup

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/text"
)

func TestValues(t *testing.T) {
	for in, want := range map[string]string{
		"Troponin I 2.3 ng/mL at 14:00":     "00 14 2.3ng/ml",
		"BP 120/80 mmHg, HR 88 bpm, 45%":    "120 45% 80mmhg 88bpm",
		"体温38.5℃，心率88次/分":                   "38.5℃ 88次/分",
		"no values here":                    "",
		"ＷＢＣ　１２．５ x10^9/L":                  "12.5x10^9/l",
		"two tablets, then 3 more tomorrow": "3",
	} {
		if got := values(fold(in, nil)); got != want {
			t.Errorf("values(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFind(t *testing.T) {
	d1, _ := base.ParseDay("2024-03-01")
	d2, _ := base.ParseDay("2024-03-02")
	line := "Troponin I 2.3 ng/mL, elevated; repeat in 3 hours."
	es := []Entry{
		{Text: line, Group: "T2 P1", Score: 1, Day: d1},
		{Text: "Troponin I 0.4 ng/mL, elevated; repeat in 3 hours.", Group: "T2 P1", Score: 0.99, Day: d2}, // other value
		{Text: line, Group: "T2 P2", Score: 0.99, Day: d2},                                                 // other patient
		{Text: "Copied: " + line, Group: "T2 P1", Score: 0.995, Day: d2},                                   // newer, close
		{Text: line, Group: "T2 P1", Score: 0.5, Day: d2},                                                  // newer, far below
		{Text: "Chest X-ray clear, no effusion.", Group: "T2 P1", Score: 0.4},
	}
	got := Find(es)
	want := []int{3, -1, -1, -1, 3, -1} // the kept copy, -1 when kept
	for i, m := range got {
		k := -1
		if m != nil {
			k = m.Kept
		}
		if k != want[i] {
			t.Errorf("entry %d: kept copy %d, want %d (%v)", i, k, want[i], m)
		}
	}
	if m := got[0]; m == nil || m.Test != "contained" {
		t.Errorf("entry 0 matched by %v, want contained (the copy adds a header)", m)
	}
}

func TestOutliers(t *testing.T) {
	unit := func(xs ...float32) []float32 { return xs }
	vecs := [][]float32{
		unit(1, 0, 0), unit(0.99, 0.141, 0), unit(0.98, 0.199, 0), unit(0.99, 0, 0.141),
		nil, unit(0.97, 0.243, 0), unit(0, 0, 1), unit(0.995, 0.1, 0),
	}
	got := Outliers(vecs)
	if len(got) != 1 || got[0].Index != 6 {
		t.Fatalf("outliers %+v, want index 6 only", got)
	}
	if Outliers(vecs[:4]) != nil {
		t.Error("outliers among fewer than MinOutlierSet vectors")
	}
}

// TestFindKeepsNoDuplicates: whatever the entries, no two kept ones are
// duplicates of each other (same group, same values, and cosine or
// shingles over the thresholds), and every dropped one names a kept one.
func TestFindKeepsNoDuplicates(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"troponin", "2.3", "ng/mL", "chest", "pain", "elevated", "repeat", "肌钙蛋白", "升高"}
	for round := range 200 {
		es := make([]Entry, 12)
		for i := range es {
			var sb strings.Builder
			for range 3 + rng.IntN(4) {
				sb.WriteString(words[rng.IntN(len(words))] + " ")
			}
			v := []float32{1, rng.Float32() * 0.4, rng.Float32() * 0.4}
			norm := float32(math.Sqrt(float64(v[0]*v[0] + v[1]*v[1] + v[2]*v[2])))
			for k := range v {
				v[k] /= norm
			}
			es[i] = Entry{Text: sb.String(), Vec: v, Group: []string{"a", "b"}[rng.IntN(2)],
				Score: 1 - float64(i)*0.01, Day: base.Day(rng.IntN(3))}
		}
		ms := Find(es)
		var kept []entry
		for i, m := range ms {
			if m == nil {
				kept = append(kept, entry{Entry: &es[i]})
			} else if ms[m.Kept] != nil {
				t.Fatalf("round %d: entry %d is a duplicate of %d, which was dropped too", round, i, m.Kept)
			}
		}
		for a := range kept {
			for b := range kept[a+1:] {
				if m := duplicate(&kept[a], &kept[a+1+b], &scratch{}); m != nil {
					t.Fatalf("round %d: kept %q and %q are duplicates (%v)", round, kept[a].Text, kept[a+1+b].Text, m)
				}
			}
		}
	}
}

// TestFold: fold is strings.ToLower after full-width folding, rune by
// rune, invalid UTF-8 included.
func TestFold(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"A", "z", "Q", "7", ".", " ", "/", "Ａ", "ｚ", "１", "．", "　", "Σ", "İ", "É", "肌", "µ", "℃", "\xff", "\xe4\xb8"}
	for range 2000 {
		var sb strings.Builder
		for range rng.IntN(12) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		s := sb.String()
		want := []rune(strings.ToLower(strings.Map(text.WidthFold, s)))
		if got := fold(s, nil); !slices.Equal(got, want) {
			t.Fatalf("fold(%q) = %q, want %q", s, string(got), string(want))
		}
	}
}

// TestShinglesBound: two sets whose Jaccard reaches MinShingles never
// differ in size by more than the bound duplicate skips on.
func TestShinglesBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		a, b := randomSet(rng), randomSet(rng)
		na, nb := len(a.keys), len(b.keys)
		if j := jaccard(a, b); j >= MinShingles && float64(min(na, nb)) < MinShingles*float64(max(na, nb)) {
			t.Fatalf("jaccard %v with sizes %d and %d", j, na, nb)
		}
	}
}

// randomSet draws up to 11 keys of 0..13 (0 included, as a hash may be).
func randomSet(rng *rand.Rand) *shingleSet {
	var s shingleSet
	n := rng.IntN(12)
	s.init(n, &scratch{})
	for range n {
		s.add(uint64(rng.IntN(14)))
	}
	return &s
}

// TestJaccard: the set's Jaccard is the sorted-sets count.
func TestJaccard(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 5000 {
		a, b := randomSet(rng), randomSet(rng)
		sa, sb := slices.Sorted(slices.Values(a.keys)), slices.Sorted(slices.Values(b.keys))
		inter := 0
		for _, h := range sa {
			if _, ok := slices.BinarySearch(sb, h); ok {
				inter++
			}
		}
		want := 0.0
		if u := len(sa) + len(sb) - inter; u > 0 {
			want = float64(inter) / float64(u)
		}
		if got := jaccard(a, b); got != want || len(slices.Compact(sa)) != len(sa) {
			t.Fatalf("jaccard of %v and %v = %v, want %v", sa, sb, got, want)
		}
	}
}

// TestContained: a copy with a header added is a duplicate, and the
// best-ranked copy is kept; a copy with a word changed, one that adds a
// finding or an allergy, or a line inside a much longer note is not.
func TestContained(t *testing.T) {
	line := "肌钙蛋白I 2.3 ng/mL，CK-MB 45 U/L，提示心肌损伤。"
	header := "（复制自既往病程记录）"
	note := "Patient has fever and chest pain since Monday, treated at home with paracetamol and rest."
	for _, c := range []struct {
		name  string
		texts []string
		want  []int // the kept copy, -1 when kept
		test  string
	}{
		{"the original first", []string{line, header + line}, []int{-1, 0}, "contained"},
		{"the copy first", []string{header + line, line}, []int{-1, 0}, "contained"},
		{"a signature after", []string{note, note + " Dr. Smith, cardiology"}, []int{-1, 0}, "contained"},
		{"a word changed", []string{note, "Copied: " + strings.Replace(note, "has fever", "has no fever", 1)}, []int{-1, -1}, ""},
		{"an allergy added", []string{note, note + " Allergic to penicillin."}, []int{-1, -1}, ""},
		{"a finding added", []string{note, note + " Chest X-ray clear."}, []int{-1, -1}, ""},
		{"a line inside a long note", []string{line, "入院后复查：" + line + "心电图示窦性心律，建议冠脉造影进一步评估。"}, []int{-1, -1}, ""},
	} {
		es := make([]Entry, len(c.texts))
		for i, s := range c.texts {
			es[i] = Entry{Text: s, Group: "T2 P1", Score: 1 - float64(i)/10}
		}
		got := Find(es)
		for i, m := range got {
			k := -1
			if m != nil {
				k = m.Kept
				if m.Test != c.test {
					t.Errorf("%s: entry %d matched by %v, want %s", c.name, i, m, c.test)
				}
			}
			if k != c.want[i] {
				t.Errorf("%s: entry %d: kept copy %d, want %d (%v)", c.name, i, k, c.want[i], m)
			}
		}
	}
	// Graph paths: a path that extends another is another chain.
	es := []Entry{{Text: "长期忧虑 导致 肝气郁结", Group: "T3 path", Path: true, Score: 1},
		{Text: "长期忧虑 导致 肝气郁结；肝气郁结 导致 郁久化火", Group: "T3 path", Path: true, Score: 0.9}}
	if got := Find(es); got[0] != nil || got[1] != nil {
		t.Errorf("paths: %v %v, want both kept", got[0], got[1])
	}
}
