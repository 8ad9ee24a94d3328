package planner

import "testing"

func TestQuotaSummary(t *testing.T) {
	for _, tc := range []struct {
		r    Result
		want string
	}{
		{Result{Quota: []Quota{{Tier: "T1", Want: 1, Got: 1, Met: true}, {Tier: "T3", Want: 1}}},
			"quota T1 1/1 T3 0/1 (not met)"},
		{Result{QuotaMet: true, Quota: []Quota{{Tier: "T2", Want: 2, Got: 3, Met: true}}},
			"quota T2 3/2 (met)"},
		{Result{QuotaMet: true, Quota: []Quota{{Tier: "T2", Got: 3, Met: true}}}, "no tier quota applies"},
		{Result{QuotaMet: true}, "no tier quota applies"},
	} {
		if got := tc.r.QuotaSummary(); got != tc.want {
			t.Errorf("QuotaSummary(%+v) = %q, want %q", tc.r.Quota, got, tc.want)
		}
	}
}
