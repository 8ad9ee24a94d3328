package pack

import "testing"

func TestWordsBefore(t *testing.T) {
	for _, tc := range []struct {
		s     string
		words int
		cuts  []string // prefix after k = 1, 2, ... words
	}{
		{"", 0, nil},
		{"  creatinine  2.8 mg/dL ", 3, []string{"  creatinine", "  creatinine  2.8", "  creatinine  2.8 mg/dL"}},
		{"青霉素过敏", 5, []string{"青", "青霉", "青霉素", "青霉素过", "青霉素过敏"}},
		{"CT示8mm结节", 5, []string{"CT", "CT示", "CT示8mm", "CT示8mm结", "CT示8mm结节"}},
		{"a\u00a0b\tc", 3, []string{"a", "a\u00a0b", "a\u00a0b\tc"}},
	} {
		if got := wordsBefore(tc.s, -1); got != tc.words {
			t.Errorf("words(%q) = %d, want %d", tc.s, got, tc.words)
		}
		for k, want := range tc.cuts {
			if got := tc.s[:wordsBefore(tc.s, k+1)]; got != want {
				t.Errorf("first %d words of %q = %q, want %q", k+1, tc.s, got, want)
			}
		}
	}
}

// TestUniformNeverOverflows: with a tokenizer that charges more than one
// token per word, the first cut overflows and the ratio must shrink.
func TestUniformNeverOverflows(t *testing.T) {
	cands := benchCandidates(50)
	p := DefaultParams()
	p.Strategy = Uniform
	p.Count = func(_ int, s string) int { return 3 * countTokens(s) }
	for _, budget := range []int{0, 1, 7, 100, 513} {
		p.Budget = budget
		r, err := Pack(cands, p)
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, cands, p, r)
	}
}
