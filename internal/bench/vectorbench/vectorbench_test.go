package vectorbench

import "testing"

func TestRun(t *testing.T) {
	r := Run(3000, 24, 5)
	if !(r.MsPerQuery > 0) || !(r.GBPerS > 0) {
		t.Errorf("Run(3000, 24, 5) = %+v", r)
	}
}
