package clinical

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/golden"
)

func TestClassifyPrecedence(t *testing.T) {
	tests := []struct {
		name string
		typ  string
		tier base.Tier
		text string
		want base.Tier
		why  string
	}{
		{"tier field wins over type and text", "lab", base.T4, "Biopsy shows carcinoma.", base.T4, "tier field"},
		{"type wins over text", "complaint", base.TierNone, "Biopsy shows carcinoma.", base.T4, "type table: complaint"},
		{"unknown type falls to text", "discharge summary", base.TierNone, "Biopsy shows carcinoma.", base.T1, "text rule: pathology"},
		{"missing type falls to text", "", base.TierNone, "CT shows a mass.", base.T2, "text rule: imaging"},
		{"nothing fires", "", base.TierNone, "He feels better today.", base.T4, "text rule: complaint"},
		{"fallback", "", base.TierNone, "Plan discussed with family.", base.T4, "text rule: fallback"},
		{"empty", "", base.TierNone, "", base.T4, "text rule: fallback"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, why := Classify(tt.typ, tt.tier, tt.text)
			if got != tt.want || why.String() != tt.why {
				t.Errorf("Classify(%q, %v, %q) = %v, %q; want %v, %q", tt.typ, tt.tier, tt.text, got, why, tt.want, tt.why)
			}
		})
	}
}

func TestPermanent(t *testing.T) {
	for _, tc := range []struct {
		typ, text string
		want      bool
	}{
		{"allergy", "Penicillin: anaphylaxis in 2012.", true},
		{"过敏史", "对头孢类抗生素过敏。", true},
		{"基因检测", "EGFR 19外显子缺失阳性。", true},
		{"lab", "He is allergic to penicillin.", false}, // the type decides
		{"", "He is allergic to penicillin.", true},
		{"", "Creatinine 2.8 mg/dL.", false},
		{"pathology", "Invasive ductal carcinoma, grade 2.", false},
	} {
		if _, why := Classify(tc.typ, base.TierNone, tc.text); why.Permanent() != tc.want {
			t.Errorf("Classify(%q, none, %q) gives %q, Permanent %v; want %v", tc.typ, tc.text, why, why.Permanent(), tc.want)
		}
	}
}

func TestTierOfType(t *testing.T) {
	tests := []struct {
		typ  string
		want base.Tier
		ok   bool
	}{
		{"pathology", base.T1, true},
		{"Pathology Report", base.T1, true},
		{"BIOPSY", base.T1, true},
		{"gene", base.T1, true},
		{"genetic", base.T1, true},
		{"allergy", base.T1, true},
		{"lab", base.T2, true},
		{"Laboratory", base.T2, true},
		{"x-ray", base.T2, true},
		{"X Ray", base.T2, true},
		{"xray", base.T2, true},
		{"CT", base.T2, true},
		{"CT chest", base.T2, true},
		{"mri", base.T2, true},
		{"ultrasound", base.T2, true},
		{"endoscopy", base.T2, true},
		{"nuclear", base.T2, true},
		{"ecg", base.T2, true},
		{"EKG", base.T2, true},
		{"exam", base.T3, true},
		{"vital_signs", base.T3, true},
		{"complaint", base.T4, true},
		{"history", base.T4, true},
		{"narrative", base.T4, true},
		{"meta-analysis", base.T1, true},
		{"Meta Analysis", base.T1, true},
		{"systematic review", base.T1, true},
		{"guideline", base.T1, true},
		{"RCT", base.T2, true},
		{"randomized controlled trial", base.T2, true},
		{"cohort", base.T3, true},
		{"case-control", base.T3, true},
		{"case report", base.T3, true},
		{"expert opinion", base.T4, true},
		{"病理", base.T1, true},
		{"肾穿刺病理报告", base.T1, true},
		{"检验", base.T2, true},
		{"影像", base.T2, true},
		{"X线", base.T2, true},
		{"胸部CT", base.T2, true},
		{"超声引导下穿刺活检", base.T1, true}, // 活检 (T1) comes before 超声 (T2) in the table
		{"体格检查", base.T3, true},
		{"主诉", base.T4, true},
		{"现病史", base.T4, true},
		{"荟萃分析", base.T1, true},
		{"随机对照试验", base.T2, true},
		{"免疫组化", base.T1, true},
		{"骨髓象", base.T1, true},
		{"辅助检查", base.T2, true},
		{"血气分析", base.T2, true},
		{"凝血", base.T2, true},
		{"肿瘤标志物", base.T2, true},
		{"Microbiology", base.T2, true},
		{"Echocardiogram", base.T2, true},
		{"专科情况", base.T3, true},
		{"舌象", base.T3, true},
		{"婚育史", base.T4, true},
		{"体格检查结果", base.T3, true}, // not captured by a T2 alias
		{"CT检查结果", base.T2, true},
		{"冠脉造影", base.T2, true},
		{"阴道镜", base.T2, true},
		{"胎心监护", base.T2, true},
		{"造影剂过敏", base.T1, true}, // an allergy, not an imaging study
		{"", base.TierNone, false},
		{"discharge summary", base.TierNone, false},
		{"note", base.TierNone, false},
	}
	for _, tt := range tests {
		got, ok := TierOfType(tt.typ)
		if got != tt.want || ok != tt.ok {
			t.Errorf("TierOfType(%q) = %v, %v; want %v, %v", tt.typ, got, ok, tt.want, tt.ok)
		}
	}
}

// TestTextRules pins the text rule that classifies each sentence of
// testdata/text_rules.tsv ("rule<TAB>sentence", # for notes).
func TestTextRules(t *testing.T) {
	path := filepath.Join("testdata", "text_rules.tsv")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, line := range strings.SplitAfter(string(data), "\n") {
		rule, sentence, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		if strings.HasPrefix(line, "#") || !ok {
			got.WriteString(line)
			continue
		}
		if _, why := Classify("", base.TierNone, sentence); why.By == ByTextRule {
			rule = why.Name
		} else {
			rule = "not a text rule: " + why.String()
		}
		got.WriteString(rule + "\t" + sentence + "\n")
	}
	golden.File(t, path, got.String())
}

func TestSegmentType(t *testing.T) {
	tests := []struct{ sentence, want string }{
		{"Renal biopsy shows vacuoles.", "pathology"},
		{"Karyotype shows 47,XY,+21.", "pathology"},
		{"He is allergic to sulfa drugs.", "allergy"},
		{"CT scan shows free air.", "imaging"},
		{"Colonoscopy shows a polyp.", "imaging"},
		{"An ECG shows atrial fibrillation.", "ecg"},
		{"Creatinine 4.2 mg/dL", "lab"},
		{"Pure tone audiometry shows a hearing loss of 45 dB.", "lab"},
		{"Pulse is 104/min.", "exam"},
		{"Examination shows a rash.", "exam"},
		{"She complains of headache.", "complaint"},
		{"主诉：腹痛3天。", "complaint"},
		{"Current medications include metformin.", "history"},
		{"既往史：否认肝炎病史。", "history"},
		{"Plan discussed with family.", ""},
	}
	for _, tt := range tests {
		if got := SegmentType(tt.sentence); got != tt.want {
			t.Errorf("SegmentType(%q) = %q, want %q", tt.sentence, got, tt.want)
		}
	}
}

// TestSegmentsMapToRuleTiers checks that every rule's segment is a type
// whose table tier is the rule's tier, so that turning sentences into typed
// segments and classifying by type agrees with the text rules.
func TestSegmentsMapToRuleTiers(t *testing.T) {
	for _, r := range TextRules {
		if r.Segment == "" {
			continue
		}
		if tier, ok := TierOfType(r.Segment); !ok || tier != r.Tier {
			t.Errorf("rule %q: segment %q has table tier %v (%v), rule tier %v", r.Name, r.Segment, tier, ok, r.Tier)
		}
	}
}

func TestTextRulesWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range TextRules {
		if seen[r.Name] {
			t.Errorf("rule name %q is not unique", r.Name)
		}
		seen[r.Name] = true
		if !r.Tier.Valid() {
			t.Errorf("rule %q has no tier", r.Name)
		}
	}
}

// TestClassifyOtherLanguages: EMR section names and the commonest report
// words in Spanish, French, German and Japanese tier a record written in
// them, lab units match in any case ("mg/dl", "mmol/l"), Traditional
// Chinese reads as Simplified, and look-alikes in English and Chinese
// stay what they were.
func TestClassifyOtherLanguages(t *testing.T) {
	for _, tt := range []struct {
		typ, text string
		want      base.Tier
	}{
		{"", "Biopsia: adenocarcinoma moderadamente diferenciado.", base.T1},
		{"", "Alergia a la penicilina (anafilaxia en 2015).", base.T1},
		{"", "Niega alergias medicamentosas.", base.T4},
		{"", "TAC de tórax: nódulo de 8 mm en el lóbulo superior derecho.", base.T2},
		{"", "Exploración física: crepitantes bibasales.", base.T3},
		{"", "Kreatinin 2,8 mg/dl, Kalium 5,9 mmol/l.", base.T2},
		{"", "Röntgen-Thorax: Infiltrat rechts basal.", base.T2},
		{"", "Allergie à la pénicilline.", base.T1},
		{"", "Échographie abdominale : lithiase vésiculaire.", base.T2},
		{"", "病理診断：中分化腺癌。", base.T1},
		{"", "ペニシリンアレルギー（アナフィラキシー）。", base.T1},
		{"", "身体所見：両肺にラ音を聴取。", base.T3},
		{"", "主訴：2時間前からの胸痛。", base.T4},
		{"anatomía patológica", "x", base.T1},
		{"alergias", "x", base.T1},
		{"laboratorio", "x", base.T2},
		{"Laborwerte", "x", base.T2},
		{"imagerie", "x", base.T2},
		{"検査", "x", base.T2},
		{"画像検査", "x", base.T2},
		{"身体所見", "x", base.T3},
		{"motivo de consulta", "Bilirrubina 5 mg/dl", base.T4},
		// Traditional Chinese is read as Simplified (text.Simplified).
		{"", "病理報告：（胃竇）低分化腺癌。", base.T1},
		{"", "對青黴素過敏，曾出現過敏性休克。", base.T1},
		{"", "心電圖：竇性心律，V1-V4導聯ST段抬高。", base.T2},
		{"", "體格檢查：雙肺聽診可聞及濕囉音。", base.T3},
		{"過敏史", "x", base.T1},
		{"檢驗", "x", base.T2},
		{"體格檢查", "x", base.T3},
		// Look-alikes that are no evidence: note types, drugs, tumours, a profile.
		{"Discharge Rx", "x", base.T4},
		{"Labor and Delivery Note", "x", base.T4},
		{"TC", "x", base.T4},
		{"", "He is on TAC and MMF after kidney transplant.", base.T4},
		{"", "History of MRT of the kidney.", base.T4},
		{"", "The scanner was unavailable overnight.", base.T4},
		{"", "He was diagnosed with grade 3 FL in 2018.", base.T4},
		{"", "构建慢病患者画像，用于随访管理。", base.T4},
		{"", "口腔知覚過敏あり。", base.T4},
		{"", "Alergia a la penicilina sin otras alergias conocidas.", base.T1},
		{"", "アレルギー：無。", base.T4},
	} {
		if got, _ := Classify(tt.typ, base.TierNone, tt.text); got != tt.want {
			t.Errorf("Classify(%q, %q) = %v, want %v", tt.typ, tt.text, got, tt.want)
		}
	}
}

// TestKeysTraditional: keys of a Traditional Chinese text are found on its
// Simplified reading and returned as written.
func TestKeysTraditional(t *testing.T) {
	if got, want := Keys("腫瘤標誌物：CEA 陽性，對青黴素過敏。"), []string{"CEA 陽性", "對青黴素過敏"}; !slices.Equal(got, want) {
		t.Errorf("Keys in Traditional Chinese = %q, want %q", got, want)
	}
}
