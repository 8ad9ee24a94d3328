package gatebench

import (
	"bytes"
	"math"
	"testing"

	"github.com/medkb/medkb/internal/gate"
	"github.com/medkb/medkb/internal/shareddata"
)

// TestMedQA holds the gate's targets on MedQA: masking sentences lowers
// the mean score at every step, for most vignettes their own score never
// rises, and the calibration on the even half gives the defaults.
func TestMedQA(t *testing.T) {
	vignettes, err := MedQA(shareddata.Path(t, "medqa", "medqa_test.jsonl"), 0)
	if err != nil {
		t.Fatal(err)
	}
	var pubQ, pubQC []string
	if !testing.Short() {
		if pubQ, pubQC, err = PubMedQA(shareddata.Path(t, "pubmedqa", "ori_pqal.json")); err != nil {
			t.Fatal(err)
		}
	}
	r := Run(vignettes, pubQ, pubQC)
	var out bytes.Buffer
	r.Write(&out)
	t.Log("\n" + out.String())
	for k := 1; k < len(r.MaskMean); k++ {
		if !(r.MaskMean[k] < r.MaskMean[k-1]) {
			t.Errorf("mean score with %d masked %.4f is not below %.4f with %d", k, r.MaskMean[k], r.MaskMean[k-1], k-1)
		}
	}
	if r.Monotone < 0.9 {
		t.Errorf("only %.1f%% of vignettes never rise under masking", 100*r.Monotone)
	}
	c := r.Calibrated
	if math.Abs(c.Theta1-gate.DefaultTheta1) > 1e-9 || math.Abs(c.Theta2-gate.DefaultTheta2) > 1e-9 {
		t.Errorf("calibration gives theta1 %g theta2 %g; the defaults are %g and %g", c.Theta1, c.Theta2, gate.DefaultTheta1, gate.DefaultTheta2)
	}
	// On the held-out half the defaults keep their error rates near the
	// tolerance they were chosen for.
	if k := r.Check; k.HalfAnswer > 2*gate.Tolerance || k.SparseWarn < 1-2*gate.Tolerance {
		t.Errorf("held-out: %.1f%% of half-masked vignettes answered, %.1f%% without A warned", 100*k.HalfAnswer, 100*k.SparseWarn)
	}
}
