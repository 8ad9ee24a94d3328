package clinical

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/golden"
	"github.com/medkb/medkb/internal/text"
)

func TestKeys(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"No values here.", nil},
		{"Troponin I 2.3 ng/mL.", []string{"2.3 ng/mL"}},
		{"WBC 12.5×10^9/L, PLT 210 x10^9/L.", []string{"12.5×10^9/L", "210 x10^9/L"}},
		{"CT shows an 8 mm × 6 mm nodule.", []string{"8 mm × 6 mm"}},
		{"Mass 3.2×2.1×1.5cm in size.", []string{"3.2×2.1×1.5cm"}},
		{"超声示左肾4～5cm囊肿。", []string{"4～5cm"}},
		{"Lesions of 3-5 cm.", []string{"3-5 cm"}},
		{"Fibrinogen 83 mg/mL (N = 200–430 mg/dL)", []string{"83 mg/mL"}},
		{"HCO3- 26 mEq/L, Cl- 100 mEq/L", []string{"26 mEq/L", "100 mEq/L"}}, // an ion's charge, not a range
		{"Na+ 130-145 mEq/L", []string{"130-145 mEq/L"}},
		{"血钾 3.5～ 5.5 mmol/L，肿块 3- 5cm", []string{"3.5～ 5.5 mmol/L", "3- 5cm"}},
		{"Blood pressure is 125/85 mm Hg.", []string{"125/85 mm Hg"}},
		{"血压150/95mmHg，心率88次/分。", []string{"150/95mmHg", "88次/分"}},
		{"Temperature 38°C (100.4°F), pulse 93/min.", []string{"38°C", "100.4°F", "93/min"}},
		{"体温37.8℃。", []string{"37.8℃"}},
		{"Leukocyte count 16,400/mm3", []string{"16,400/mm3"}},
		{"Segmented neutrophils 56%", []string{"56%"}},
		{"D-dimer 965 ng/mL (N < 500 ng/mL)", []string{"965 ng/mL"}}, // a reference range is no key,
		{"血肌酐256μmol/L，血钾5.8mmol/L。", []string{"256μmol/L", "5.8mmol/L"}},
		{"Creatinine 2.8 mg/dL and creatinine 2.8 mg/dL again.", []string{"2.8 mg/dL"}},
		{"Biopsy is positive for malignancy and negative for lymphoma.", []string{"Biopsy is positive for malignancy", "negative for lymphoma"}},
		{"A urine pregnancy test is negative.", []string{"pregnancy test is negative"}},
		{"ER positive, HER2-negative.", []string{"ER positive", "HER2-negative"}},
		{"抗核抗体阴性，尿蛋白阳性。", []string{"抗核抗体阴性", "尿蛋白阳性"}},
		{"HBsAg (+), 尿蛋白(+++)，隐血（-）。", []string{"HBsAg (+)", "尿蛋白(+++)", "隐血（-）"}},
		{"There is no evidence of metastatic disease.", []string{"no evidence of metastatic disease"}},
		{"胸片未见明显异常。", []string{"未见明显异常"}},
		{"He is allergic to penicillin and sulfa.", []string{"allergic to penicillin"}},
		{"Documented severe penicillin allergy: anaphylaxis after amoxicillin.", []string{"penicillin allergy", "anaphylaxis"}},
		{"She has an allergy to sulfa drugs.", []string{"allergy to sulfa drugs"}},
		{"Known drug allergy. Severe allergy: none.", []string{"drug allergy"}},
		{"Cephalosporins only after allergy review. No known food or latex allergy.", nil},
		{"Allergies: no known drug allergies.", []string{"no known drug allergies"}},
		{"患者青霉素过敏。", []string{"患者青霉素过敏"}},
		{"曾对碘造影剂过敏。", []string{"对碘造影剂过敏"}},
		{"否认其他药物及食物过敏史。", []string{"否认其他药物及食物过敏史"}},
		{"否认对青霉素过敏。", []string{"否认对青霉素过敏"}},
		{"否认食物、药物过敏史，否认手术史。", []string{"否认食物、药物过敏史"}},
		{"既往体健。否认高血压\n青霉素过敏。", []string{"青霉素过敏"}},
		{"过敏性鼻炎病史。", nil},
		{"A 67-year-old man with a 2-day history.", nil},
		{"CO2 25 mEq/L", []string{"25 mEq/L"}},
		{"Arterial blood gas: pH 7.31, INR 1.2, grade 2, 3 children.", []string{"7.31", "1.2"}},
		{"FLT3-ITD阳性，等位基因比0.62；Z值+2.8。", []string{"FLT3-ITD阳性", "0.62", "2.8"}},
		{"Colonoscopy shows a 2.3-cm polypoid mass.", []string{"2.3-cm"}},
		{"TSH 110.0 µU/mL; prothrombin time 9 seconds, PTT 30.0 sec.", []string{"110.0 µU/mL", "9 seconds", "30.0 sec"}},
		{"Mean corpuscular hemoglobin 49.9 pg/cell (3.1 fmol/cell)", []string{"49.9 pg/cell", "3.1 fmol/cell"}},
	}
	for _, tt := range tests {
		got := Keys(tt.text)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Keys(%q)\n got %q\nwant %q", tt.text, got, tt.want)
		}
		checkKeys(t, tt.text, got)
	}
}

// checkKeys asserts the Keys invariants: substrings, no repeats.
func checkKeys(t *testing.T, text string, keys []string) {
	t.Helper()
	for i, k := range keys {
		if k == "" || !strings.Contains(text, k) {
			t.Fatalf("key %q is empty or not a substring of %q", k, text)
		}
		if slices.Contains(keys[:i], k) {
			t.Fatalf("key %q repeats in %q", k, keys)
		}
	}
}

// TestCompress pins Compress on the texts of testdata/compress.txt and
// holds each to the contract (checkCompress).
func TestCompress(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "compress.txt"), func(t *testing.T, c *golden.Case) string {
		b, n, all := Compress(c.Input)
		checkCompress(t, c.Input, b, n, all)
		if b == "" {
			return fmt.Sprintf("keys %d/%d, no state B", n, all)
		}
		return fmt.Sprintf("keys %d/%d, state B:\n%s", n, all, b)
	})
}

func TestAdministrative(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{"The specimen was received in formalin.", true},
		{"Clinical correlation is recommended.", true},
		{"Results were reviewed and released by the duty biochemist.", true},
		{"Electronically signed by Dr. J. Smith, MD, on 2024-03-05 at 14:32.", true},
		{"Technique: axial images were obtained after intravenous contrast.", true},
		{"Dose report archived.", true},
		{"Thank you for this referral.", true},
		{"以上结果仅对本次送检标本负责，如有疑问请于3日内与检验科联系。", true},
		{"請結合臨床。", true}, // Traditional
		{"报告医师：王明 审核医师：李华", true},
		{"建议定期随访。", true},
		// Kept: a word no vocabulary knows, a negation, a site, a
		// specimen, a symbol, a lone word, or nothing that marks it.
		{"Specimen: venous blood.", false},
		{"标本类型：尿液。", false},
		{"标本状态良好，无溶血。", false},
		{"No prior study for comparison.", false},
		{"Technique: axial images from the thoracic inlet to the adrenal glands.", false},
		{"Report: positive.", false},
		{"Follow-up CT of the left adrenal nodule is recommended.", false},
		{"建议3个月后复查胸部CT。", false},
		{"Results ↑.", false},
		{"Satisfactory.", false},
		{"3 of 12 cores.", false}, // a count of involved cores, its heading on the line before
		{"On Monday at 10:00.", false},
		{"患者：青霉素过敏。", false},
	} {
		if got := Administrative(tt.s); got != tt.want {
			t.Errorf("Administrative(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

// checkCompress asserts the Compress invariants.
func checkCompress(t *testing.T, text, b string, nEntity, nTotal int) {
	t.Helper()
	keys := Keys(text)
	if nTotal != len(keys) || nEntity > nTotal || nEntity < 0 {
		t.Fatalf("Compress(%q): nEntity %d, nTotal %d, %d keys", text, nEntity, nTotal, len(keys))
	}
	if b == "" {
		if nEntity != 0 {
			t.Fatalf("Compress(%q) = \"\" with nEntity %d", text, nEntity)
		}
		return
	}
	if len(b) >= len(strings.TrimSpace(text)) {
		t.Fatalf("Compress(%q) = %q is not shorter than the text", text, b)
	}
	kept := 0
	for _, k := range keys {
		if strings.Contains(b, k) {
			kept++
		}
	}
	if kept != nEntity || nEntity != nTotal {
		t.Fatalf("Compress(%q): nEntity %d of %d, but %d keys survive in %q", text, nEntity, nTotal, kept, b)
	}
	for _, w := range negationWords {
		if nt, nb := w.count(text), w.count(b); nt != nb {
			t.Fatalf("Compress(%q) = %q has %d of the %d %q of the text", text, b, nb, nt, w.word)
		}
	}
}

// negationWords are the words of a negation that state B must never drop,
// in English (whole words, any case) and Chinese.
var negationWords = func() []negationWord {
	var out []negationWord
	for _, w := range []string{"no", "not", "without", "negative", "denies", "denied", "none", "never", "absent"} {
		out = append(out, negationWord{w, regexp.MustCompile(`(?i)\b` + w + `\b`)})
	}
	for _, w := range []string{"无", "未", "否认", "阴性", "不", "非", "没有"} {
		out = append(out, negationWord{w, regexp.MustCompile(regexp.QuoteMeta(w))})
	}
	return out
}()

type negationWord struct {
	word string
	re   *regexp.Regexp
}

func (w negationWord) count(s string) int { return len(w.re.FindAllStringIndex(s, -1)) }

// FuzzKeysCompress checks the Keys and Compress invariants on any text:
// Compress never panics, b is shorter than the text or "", every key and
// every negation word survives.
func FuzzKeysCompress(f *testing.F) {
	for _, s := range []string{
		"Troponin 2.3 ng/mL", "WBC 12.5×10^9/L", "8 mm × 6 mm", "4～5cm", "125/85 mm Hg", "阴性", "(+)",
		"positive for ", "allergic to", "对过敏", "未见", "\xff2.3 mg/dL", "1,2,3,4 mg", "CT示结节8mm，边界清。",
		"青霉素过敏：2014年肌注后出现皮疹，治疗后缓解。",
		"Specimen received in formalin. No pneumothorax. Clinical correlation is recommended.",
		"以上结果仅对本次送检标本负责。未见异常。请结合临床。", "Laboratory studies show:\nK 5.9 mmol/L H (3.5-5.1)",
		"报告医师：王明 审核医师：李华\n未见癌", "Condition:\nnot recorded\nReport signed.",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkKeys(t, s, Keys(s))
		b, n, all := Compress(s)
		checkCompress(t, s, b, n, all)
	})
}

func TestRefRanges(t *testing.T) {
	cut := func(s string) string {
		var b strings.Builder
		last := 0
		for _, r := range refRanges(s) {
			b.WriteString(s[last:r[0]])
			last = r[1]
		}
		return b.String() + s[last:]
	}
	for _, tt := range []struct{ in, want string }{
		{"白细胞 21.6×10^9/L↑（3.5-9.5），血红蛋白 118g/L（130-175）↓", "白细胞 21.6×10^9/L↑，血红蛋白 118g/L↓"},
		{"降钙素原 42.5ng/ml↑（<0.05）", "降钙素原 42.5ng/ml↑"},
		{"降钙素原 42.5ng/ml（参考值<0.05）", "降钙素原 42.5ng/ml"},
		{"D-dimer 965 ng/mL (N < 500 ng/mL)", "D-dimer 965 ng/mL"},
		{"pH 7.21 (Normal: 7.35-7.45)", "pH 7.21"},
		{"Free T4 6 pmol/L N: 10–20 pmol/L", "Free T4 6 pmol/L"},
		{"BUN 22 mg/dL N: 7–20 mg/dL, creatinine 1.1 mg/dL", "BUN 22 mg/dL, creatinine 1.1 mg/dL"},
		{"LVEF normal: 55-60% on echo. Normal: 0.6–1.2 today", "LVEF normal: 55-60% on echo. Normal: 0.6–1.2 today"},
		{"Fibrinogen 110 mg/dL (N = 200–430 mg/dL), reticulocytes 4% (N = 13%–15%)", "Fibrinogen 110 mg/dL, reticulocytes 4%"},
		{"pCO2 32 mm Hg N: 35–45 mm Hg", "pCO2 32 mm Hg"},
		{"K 5.9 mmol/L H (3.5-5.1), Hb 9.1 g/dL LL (12-16)", "K 5.9 mmol/L H, Hb 9.1 g/dL LL"},
		// Findings in brackets, not reference ranges.
		{"3 nodules (1-2 cm) in both lungs", "3 nodules (1-2 cm) in both lungs"},
		{"Ki-67 (20-30%), PD-L1 TPS (1-49%), CA125（>600U/ml）", "Ki-67 (20-30%), PD-L1 TPS (1-49%), CA125（>600U/ml）"},
		{"Prednisone 5 mg (2-3 times daily)", "Prednisone 5 mg (2-3 times daily)"},
		{"Rectal mass 4 cm (5-6 cm from the anal verge)", "Rectal mass 4 cm (5-6 cm from the anal verge)"},
		{"Output 5 L (2-3 L expected), grade 5 H (2-3)", "Output 5 L (2-3 L expected), grade 5 H (2-3)"},
		{"38.5°C (101.3°F), ER（90%+）, BP 120/80 (110-130)", "38.5°C (101.3°F), ER（90%+）, BP 120/80 (110-130)"},
	} {
		if got := cut(tt.in); got != tt.want {
			t.Errorf("without reference ranges %q = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSameShape(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"陽性", "阳性", true},
		{"a陽", "a阳", true},
		{"蹻ab", "𡻕a", false}, // both 5 bytes, but 3 against 4 at the first rune
		{"ab", "abc", false},
	} {
		if got := sameShape(tt.a, tt.b); got != tt.want {
			t.Errorf("sameShape(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestStateB checks that a compression saving too few tokens is no state
// B, in Chinese and in English, and that one saving more is Compress's.
func TestStateB(t *testing.T) {
	tok, err := text.NewTokenizer()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"心电图：心房颤动，心室率126次/分，未见ST-T动态改变。", "血钾 5.9mmol/L。", "Potassium 5.9 mmol/L.",
		"Potassium 5.9 mmol/L (3.5-5.1), sodium 128 mmol/L, chloride 95 mmol/L, bicarbonate 18 mmol/L, urea 12.1 mmol/L, creatinine 212 µmol/L, glucose 9.4 mmol/L, calcium 2.01 mmol/L, phosphate 1.9 mmol/L, magnesium 0.7 mmol/L.", // a range cut saves under a tenth
	} {
		if b, _, _, n := StateB(s, tok.Count(s), tok.Count); b != "" || n == 0 {
			t.Errorf("StateB(%q) = %q with %d keys; want no state B and the keys counted", s, b, n)
		}
	}
	wordy := "Creatinine 2.8 mg/dL (0.6-1.2), potassium 5.9 mmol/L (3.5-5.1). Results were reviewed and released by the duty biochemist; please contact the laboratory with questions."
	b, _, kept, n := StateB(wordy, tok.Count(wordy), tok.Count)
	if cb, _, _ := Compress(wordy); b != cb || b != "Creatinine 2.8 mg/dL, potassium 5.9 mmol/L." || kept != 2 || n != 2 {
		t.Errorf("StateB(%q) = %q %d/%d; want Compress's %q, 2/2", wordy, b, kept, n, cb)
	}
}
