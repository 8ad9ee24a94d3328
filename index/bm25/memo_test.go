package bm25

import (
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
)

// TestMemoAnalyzerSameTokens checks that the memoising copy of the text
// analyzer gives the tokens of the original, also for repeated words,
// full-width Latin, half-width kana and possessives.
func TestMemoAnalyzerSameTokens(t *testing.T) {
	ix := openTemp(t)
	memo := memoAnalyzer(ix.an.text)
	if memo == ix.an.text {
		t.Fatal("the text analyzer was not memoised")
	}
	texts := []string{
		"Patients' tumors grew; the patient's tumours were studied in studies of tumors.",
		"ＣＴ ｓｃａｎ showed ｎｏｄｕｌｅｓ nodules ﾃｽﾄ ﾃﾞｰﾀ ｶﾞ テスト 胸部CT检查 胸痛",
		"Running runners ran; running again. Hemoglobin 118g/L（130-175） hemoglobins",
		"Patients' tumors grew; the patient's tumours were studied in studies of tumors.",
	}
	for _, s := range texts {
		want, got := ix.an.text.Analyze([]byte(s)), memo.Analyze([]byte(s))
		if !slices.EqualFunc(want, got, func(a, b *analysis.Token) bool {
			return string(a.Term) == string(b.Term) && a.Start == b.Start && a.End == b.End &&
				a.Position == b.Position && a.Type == b.Type && a.KeyWord == b.KeyWord
		}) {
			t.Errorf("%q:\n got %v\nwant %v", s, got, want)
		}
	}
}
