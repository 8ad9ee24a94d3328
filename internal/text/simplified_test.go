package text

import (
	"sync"
	"testing"
)

func TestSimplified(t *testing.T) {
	for in, want := range map[string]string{
		"病理報告：低分化腺癌。過敏史：對青黴素過敏。心電圖：竇性心律。": "病理报告：低分化腺癌。过敏史：对青霉素过敏。心电图：窦性心律。",
		"體格檢查：雙肺聽診濕囉音。":                   "体格检查：双肺听诊湿啰音。",
		"检验：肌酐 356μmol/L。":                "检验：肌酐 356μmol/L。",
		"Creatinine 2.8 mg/dL":            "Creatinine 2.8 mg/dL",
	} {
		if got := Simplified(in); got != want {
			t.Errorf("Simplified(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSimplifiedConcurrent: the one converter serves every goroutine
// (run with -race).
func TestSimplifiedConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if got := Simplified("檢驗：白血球 15.6×10^9/L，陽性。"); got != "检验：白血球 15.6×10^9/L，阳性。" {
					t.Errorf("got %q", got)
					return
				}
			}
		})
	}
	wg.Wait()
}
