package main

import (
	"testing"

	"github.com/medkb/medkb"
	"github.com/medkb/medkb/planner"
)

func TestQuotaSummary(t *testing.T) {
	for _, tc := range []struct {
		r    medkb.Result
		want string
	}{
		{medkb.Result{Quota: []planner.Quota{{Tier: "T1", Want: 1, Got: 1, Met: true}, {Tier: "T3", Want: 1}}},
			"quota T1 1/1 T3 0/1 (not met)"},
		{medkb.Result{QuotaMet: true, Quota: []planner.Quota{{Tier: "T2", Want: 2, Got: 3, Met: true}}},
			"quota T2 3/2 (met)"},
		{medkb.Result{QuotaMet: true, Quota: []planner.Quota{{Tier: "T2", Got: 3, Met: true}}}, "no tier quota"},
	} {
		if got := quotaSummary(&tc.r); got != tc.want {
			t.Errorf("quotaSummary(%+v) = %q, want %q", tc.r.Quota, got, tc.want)
		}
	}
}
