package text

import (
	"strings"
	"testing"
)

func TestFoldKey(t *testing.T) {
	for _, tt := range []struct{ text, key string }{
		{"Creatinine 2.8mg/dL", "2.8 mg/dL"},
		{"ER（90%+），PR（30%+）", "ER(90%+),PR(30%+)"},
		{"HbA1c 9.1 %", "hba1c 9.1%"},
	} {
		if !strings.Contains(FoldKey(tt.text), FoldKey(tt.key)) {
			t.Errorf("%q does not hold %q after folding: %q, %q", tt.text, tt.key, FoldKey(tt.text), FoldKey(tt.key))
		}
	}
	for _, tt := range []struct{ text, key string }{
		{"Creatinine 2.8 mg/dL", "2.9 mg/dL"},
		{"Cr 1 1.5 mg/dL", "11.5 mg/dL"},
		{"ER（90%+）", "ER(80%+)"},
	} {
		if strings.Contains(FoldKey(tt.text), FoldKey(tt.key)) {
			t.Errorf("folding made %q match %q", tt.key, tt.text)
		}
	}
}
