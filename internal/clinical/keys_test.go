package clinical

import (
	"slices"
	"strings"
	"testing"

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

func TestCompress(t *testing.T) {
	tests := []struct {
		name         string
		text         string
		want         string
		nEntity, all int
	}{
		{"no keys, no state B", "The patient tolerated the procedure well.", "", 0, 0},
		{"names kept next to values",
			"His temperature is 38°C (100.4°F), pulse is 93/min, and blood pressure is 125/85 mm Hg.",
			"temperature 38°C (100.4°F); pulse 93/min; blood pressure 125/85 mm Hg", 4, 4},
		{"filler sentences dropped",
			"The specimen was received in formalin. Serum creatinine was elevated at 2.8 mg/dL. Clinical correlation is recommended.",
			"Serum creatinine elevated 2.8 mg/dL", 1, 1},
		{"result sentence kept whole",
			"Biopsy shows adenocarcinoma, positive for TTF-1. Please call with questions.",
			"Biopsy shows adenocarcinoma; positive for TTF-1", 1, 1},
		{"lab lines",
			"Laboratory studies show:\nHemoglobin 14 g/dL\nLeukocyte count 16,400/mm3",
			"Hemoglobin 14 g/dL; Leukocyte count 16,400/mm3", 2, 2},
		{"size with its object",
			"A CT of the chest shows a 3.2 cm mass in the right upper lobe.",
			"CT chest 3.2 cm mass", 1, 1},
		{"chinese allergy: the circumstances and the course go, the reaction stays",
			"对头孢类抗生素过敏：2014年静滴头孢曲松后出现全身皮疹、胸闷，经抗过敏治疗后缓解。否认食物过敏。",
			"对头孢类抗生素过敏：出现全身皮疹、胸闷；否认食物过敏", 2, 2},
		{"chinese allergy named in the clause before its reaction",
			"头孢曲松过敏，2016年静滴后出现过敏性休克。",
			"头孢曲松过敏；出现过敏性休克", 1, 1},
		{"chinese reaction before the allergen: nothing to cut",
			"2015年服用复方磺胺甲噁唑后出现重症多形红斑，磺胺类药物过敏。",
			"2015年服用复方磺胺甲噁唑后出现重症多形红斑，磺胺类药物过敏", 1, 1},
		{"chinese denial: no allergen, no course to cut",
			"否认药物过敏史，2019年出现皮疹后缓解。",
			"否认药物过敏史，2019年出现皮疹后缓解", 1, 1},
		{"chinese denial with 无", "无药物过敏史，2019年出现皮疹后缓解。", "无药物过敏史，2019年出现皮疹后缓解", 1, 1},
		{"chinese negated reaction: never cut to its opposite",
			"青霉素过敏：2014年肌注后未出现皮疹，仅感头晕。", "青霉素过敏：2014年肌注后未出现皮疹，仅感头晕", 1, 1},
		{"chinese allergy: a later sentence is not the allergy's",
			"对青霉素过敏。2018年行阑尾切除术，术后出现切口感染，体温38.5℃，换药后痊愈。",
			"对青霉素过敏。2018年行阑尾切除术，术后出现切口感染，体温38.5℃，换药后痊愈", 2, 2},
		{"chinese reaction and its course in one clause: kept",
			"青霉素过敏，2019年肌注后出现全身皮疹后缓解。", "青霉素过敏；出现全身皮疹后缓解", 1, 1},
		{"chinese reaction: reference ranges cut",
			"对头孢过敏：2019年静滴后出现血钾5.9mmol/L（3.5-5.3）。", "对头孢过敏：出现血钾5.9mmol/L", 2, 2},
		{"chinese",
			"患者一般情况可。血常规：白细胞12.5×10^9/L，血红蛋白98g/L。抗核抗体阴性。建议定期随访。",
			"血常规：白细胞12.5×10^9/L，血红蛋白98g/L。抗核抗体阴性", 3, 3},
		{"a chinese diagnosis without a verb is kept",
			"（左肺上叶）穿刺组织：浸润性腺癌，腺泡为主型。免疫组化：TTF-1（+），Ki-67约30%。建议结合临床。",
			"（左肺上叶）穿刺组织：浸润性腺癌，腺泡为主型。免疫组化：TTF-1（+），Ki-67约30%", 2, 2},
		{"chinese clauses with keys kept whole",
			"痰涂片抗酸染色阳性（2+），幽门螺杆菌尿素呼气试验阳性，血型O型RhD阳性。胸腹部增强CT：双肺、肝脏未见转移灶。",
			"痰涂片抗酸染色阳性（2+），幽门螺杆菌尿素呼气试验阳性，血型O型RhD阳性。胸腹部增强CT：双肺、肝脏未见转移灶", 4, 4},
		{"chinese result clause",
			"超声示左肾4～5cm囊肿，边界清。请结合临床。",
			"超声示左肾4～5cm囊肿，边界清", 1, 1},
		{"allergy with its reaction", "He says he is allergic to penicillin, which gave him hives as a child.",
			"allergic to penicillin; which gave him hives as a child", 1, 1},
		{"an allergy keeps its severity and the whole reaction",
			"Severe allergy: anaphylaxis to penicillin in 2015. Penicillin allergy: urticaria and angioedema.",
			"Severe allergy: anaphylaxis to penicillin in 2015; Penicillin allergy: urticaria and angioedema", 2, 2},
		{"a denied allergy keeps no reaction", "No known drug allergies and the patient lives alone with his wife near the river.",
			"No known drug allergies", 1, 1},
		{"a grade before a finding stays", "The smear was reviewed; there is severe dysplasia negative for malignancy.",
			"severe dysplasia negative for malignancy", 1, 1},
		{"findings without numbers kept beside the keys",
			"心电图：心房颤动，心室率126次/分，未见ST-T动态改变。",
			"心电图：心房颤动，心室率126次/分，未见ST-T动态改变", 2, 2},
		{"a chinese diagnosis before a semicolon is kept, brackets stay whole",
			"胃窦活检病理：低分化腺癌，部分为印戒细胞癌；HER2（0），Claudin18.2阳性（75%，2+/3+）。请结合临床。",
			"胃窦活检病理：低分化腺癌，部分为印戒细胞癌；HER2（0），Claudin18.2阳性（75%，2+/3+）", 2, 2},
		{"chinese advice dropped, findings near it kept",
			"白细胞12.5×10^9/L；建议复查血常规。病理：低分化腺癌；建议MDT讨论。复查胃镜：溃疡已愈合。",
			"白细胞12.5×10^9/L；病理：低分化腺癌；复查胃镜：溃疡已愈合", 1, 1},
		{"english brackets do not shield a clause",
			"Potassium 5.8 mmol/L (hemolyzed, repeat pending), creatinine 2.8 mg/dL.",
			"Potassium 5.8 mmol/L; repeat pending); creatinine 2.8 mg/dL", 2, 2},
		{"reference ranges are no keys and leave state B",
			"血常规：白细胞 21.6×10^9/L↑（3.5-9.5），降钙素原 42.5ng/ml↑（参考值<0.05）。D-dimer 965 ng/mL (N < 500 ng/mL), temperature 38.5°C (101.3°F).",
			"血常规：白细胞 21.6×10^9/L↑，降钙素原 42.5ng/ml↑。D-dimer 965 ng/mL, temperature 38.5°C (101.3°F)", 5, 5},
		{"an acronym names its value",
			"Arterial blood gas: pH 7.26, BE -13.2 mmol/L, lactate 5.8 mmol/L.",
			"blood gas: pH 7.26; BE -13.2 mmol/L; lactate 5.8 mmol/L", 3, 3},
		{"a chinese numbered conclusion stays whole",
			"胸部CT：右肺下叶见大片实变影。右侧胸腔积液，最深约2.1cm。诊断意见：1.右肺下叶大叶性肺炎；2.右侧少量胸腔积液。",
			"胸部CT：右肺下叶见大片实变影。右侧胸腔积液，最深约2.1cm。诊断意见：1.右肺下叶大叶性肺炎；2.右侧少量胸腔积液", 1, 1},
		{"a range is judged in the source, not after words are dropped",
			"Mass 3 cm with (1-2 cm) satellite nodules.",
			"Mass 3 cm (1-2 cm) satellite nodules", 2, 2},
		{"a diagnosis clause is not filler",
			"支气管镜肺活检病理：肉芽肿性炎伴干酪样坏死，抗酸染色查见阳性杆菌。",
			"支气管镜肺活检病理：肉芽肿性炎伴干酪样坏死，抗酸染色查见阳性杆菌", 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, n, all := Compress(tt.text)
			if b != tt.want || n != tt.nEntity || all != tt.all {
				t.Errorf("Compress(%q)\n got %q %d/%d\nwant %q %d/%d", tt.text, b, n, all, tt.want, tt.nEntity, tt.all)
			}
			checkCompress(t, tt.text, b, n, all)
		})
	}
}

// checkCompress asserts the Compress invariants.
func checkCompress(t *testing.T, text, b string, nEntity, nTotal int) {
	t.Helper()
	keys := Keys(text)
	if nTotal != len(keys) || nEntity > nTotal || nEntity < 0 {
		t.Fatalf("Compress(%q): nEntity %d, nTotal %d, %d keys", text, nEntity, nTotal, len(keys))
	}
	if len(b) > len(text) {
		t.Fatalf("Compress(%q) = %q is longer than the text", text, b)
	}
	if (b == "") != (len(keys) == 0) {
		t.Fatalf("Compress(%q) = %q with %d keys", text, b, len(keys))
	}
	kept := 0
	for _, k := range keys {
		if strings.Contains(b, k) {
			kept++
		}
	}
	if kept != nEntity {
		t.Fatalf("Compress(%q): nEntity %d, but %d keys survive in %q", text, nEntity, kept, b)
	}
}

func FuzzKeysCompress(f *testing.F) {
	for _, s := range []string{
		"Troponin 2.3 ng/mL", "WBC 12.5×10^9/L", "8 mm × 6 mm", "4～5cm", "125/85 mm Hg", "阴性", "(+)",
		"positive for ", "allergic to", "对过敏", "未见", "\xff2.3 mg/dL", "1,2,3,4 mg", "CT示结节8mm，边界清。",
		"青霉素过敏：2014年肌注后出现皮疹，治疗后缓解。",
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
	for _, s := range []string{"心电图：心房颤动，心室率126次/分，未见ST-T动态改变。", "血钾 5.9mmol/L。", "Potassium 5.9 mmol/L."} {
		if b, _, _, n := StateB(s, tok.Count(s), tok.Count); b != "" || n == 0 {
			t.Errorf("StateB(%q) = %q with %d keys; want no state B and the keys counted", s, b, n)
		}
	}
	wordy := "The renal panel drawn this morning shows a creatinine of 2.8 mg/dL, and the potassium was measured at 5.9 mmol/L."
	b, _, kept, n := StateB(wordy, tok.Count(wordy), tok.Count)
	if cb, _, _ := Compress(wordy); b != cb || kept != 2 || n != 2 {
		t.Errorf("StateB(%q) = %q %d/%d; want Compress's %q, 2/2", wordy, b, kept, n, cb)
	}
}
