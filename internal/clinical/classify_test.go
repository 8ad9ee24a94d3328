package clinical

import (
	"slices"
	"testing"

	"github.com/medkb/medkb/internal/base"
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

func TestTextRules(t *testing.T) {
	tests := []struct {
		text string
		rule string
	}{
		{"Renal biopsy shows intravascular spindle-shaped vacuoles.", "pathology"},
		{"Immunohistochemistry is positive for CD20.", "pathology"},
		{"肾穿刺病理提示膜性肾病。", "pathology"},
		{"免疫组化：CK（+）。", "pathology"},
		{"生理反射存在，病理反射未引出。", "physical examination"},
		{"A fine needle aspiration biopsy is scheduled for next week.", "fallback"},
		{"Genetic testing shows a BRCA1 mutation.", "genetic test"},
		{"EGFR基因19号外显子缺失。", "genetic test"},
		{"He is allergic to penicillin.", "allergy"},
		{"She had anaphylaxis after peanuts.", "allergy"},
		{"对青霉素过敏。", "allergy"},
		{"No known drug allergies.", "fallback"},
		{"否认药物过敏史。", "history"},
		{"青霉素皮试阳性。", "allergy"},
		{"3岁时服用头孢克洛后出现全身荨麻疹。", "allergy"},
		{"服用甲巯咪唑后出现粒细胞缺乏症，已停药。", "allergy"},
		{"服用阿莫西林后无不适。", "history"},
		{"服用抗组胺药后荨麻疹消退。", "history"},
		{"结核菌素皮试阳性。", "fallback"},
		{"He was treated with ECT for depression.", "history"}, // electroconvulsive therapy, no imaging,
		{"过敏性鼻炎病史10年。", "history"},
		{"曾于2018年使用头孢呋辛后出现过敏性休克。", "allergy"},
		{"无过敏性休克史。", "fallback"},
		{"宫颈TCT：高级别鳞状上皮内病变。", "pathology"},
		{"染色体检查：47,XY,+21。", "genetic test"},
		{"结肠镜：乙状结肠溃疡型肿物，于肿物处取活检6块。", "endoscopy"},
		{"胃镜：胃窦黏膜散在糜烂，于胃窦小弯侧活检1块。", "endoscopy"},
		{"阴道镜：宫颈见厚醋白上皮，于9、12点多点活检，标本送病理。", "endoscopy"},
		{"EGD: a clean-based antral ulcer. Biopsies were taken from the ulcer margin.", "endoscopy"},
		{"肠镜：直肠见一0.4cm广基息肉，予以活检钳除，送病理。", "endoscopy"},
		{"ERCP：胆总管下段狭窄，于狭窄段行刷检送细胞学检查。", "endoscopy"},
		{"超声内镜：胰头低回声占位，行EUS-FNA穿刺3针，组织条送病理。", "imaging"}, // 超声 fires first
		{"（右乳肿物穿刺）浸润性导管癌，组织学分级Ⅱ级。", "pathology"},
		{"胃镜下钳取组织，病理示低级别上皮内瘤变。", "pathology"},
		{"胃镜下取活检，病理示中分化腺癌。", "pathology"},
		{"（乙状结肠）活检：中分化腺癌。", "pathology"},
		{"Gastric antrum, biopsy: chronic active gastritis.", "pathology"},
		{"律齐，各瓣膜听诊区未闻及病理性杂音。", "physical examination"},
		{"心电图：Ⅱ、Ⅲ、aVF导联可见病理性Q波。", "ECG"},
		{"There are no pathological reflexes.", "physical examination"},
		{"心率88次/分，律齐，各瓣膜听诊区未闻及病理性杂音。", "vital signs"},
		{"窦性心律，Ⅱ、Ⅲ、aVF导联可见病理性Q波。", "ECG"},
		{"心房颤动，心室率102次/分，ST-T未见明显异常。", "ECG"},
		{"Atrial fibrillation with a ventricular rate of 92, left axis deviation.", "ECG"},
		{"左室壁运动弥漫性减弱，LVEF 26%，估测肺动脉收缩压52mmHg。", "imaging"},
		{"阑尾区可见一管状低回声结构，外径约11mm。", "imaging"},
		{"胸部正位片：左下肺大片状密度增高影。", "imaging"},
		{"CXR: right lower lobe consolidation with air bronchograms.", "imaging"},
		{"（胃窦）黏膜中度慢性炎，活动性（+），HP（+）。", "pathology"},
		{"（阑尾）急性化脓性阑尾炎伴阑尾周围炎。", "pathology"},
		{"（2024-03-01）胸部CT：右肺下叶炎症。", "imaging"},
		{"（血清）乙型肝炎病毒表面抗原阳性。", "laboratory"},
		{"骨髓象：增生极度活跃，原始粒细胞占76%。", "pathology"},
		{"Perigastric lymph node, EUS-FNA: metastatic adenocarcinoma.", "pathology"},
		{"Germline panel: pathogenic BRCA1 variant detected.", "genetic test"},
		{"BP 182/96, alert, right facial droop.", "vital signs"},
		{"神清，皮肤黏膜无黄染，浅表淋巴结未扪及肿大，颈软，气管居中，心界不大。", "physical examination"},
		{"胸廓对称，语颤正常，叩诊清音，移动性浊音阴性，肠鸣音正常，双下肢无水肿。", "physical examination"},
		{"刮除鳞屑可见点状出血（Auspitz征阳性），皮损约占体表面积35%。", "physical examination"},
		{"肾病综合征（+）", "fallback"}, // a syndrome, not a sign
		{"电子喉镜：双侧声带光滑。", "endoscopy"},
		{"骨密度：T值-3.1。", "imaging"},
		{"乙肝两对半：HBsAg阳性，HBeAg阳性。", "laboratory"},
		{"An x-ray of the chest shows a right lower lobe consolidation.", "imaging"},
		{"胸部CT示右肺上叶结节。", "imaging"},
		{"头颈CTA：左侧大脑中动脉M1段闭塞。", "imaging"},
		{"骨扫描示多发骨转移。", "imaging"},
		{"全身骨ECT示多发骨转移。", "imaging"},
		{"胎心监护正常。", "function test"},
		{"甲状腺功能正常。", "laboratory"},
		{"A pet dog lives with him.", "fallback"},
		{"An ECG shows ST-segment elevation in leads II, III and aVF.", "ECG"},
		{"心电图示窦性心动过速。", "ECG"},
		{"Colonoscopy shows a 2-cm polyp.", "endoscopy"},
		{"胃镜：胃窦溃疡。", "endoscopy"},
		{"Spirometry shows an FEV1/FVC ratio of 0.6.", "function test"},
		{"Serum creatinine is 2.8 mg/dL.", "laboratory"},
		{"Hemoglobin 14 g/dL", "laboratory"},
		{"A urine pregnancy test is negative.", "laboratory"},
		{"血常规：白细胞12.5×10^9/L。", "laboratory"},
		{"Laboratory tests are pending.", "fallback"},
		{"痰涂片抗酸染色阳性（2+）。", "laboratory"},
		{"13C尿素呼气试验阳性。", "laboratory"},
		{"2型糖尿病5年，血糖控制欠佳。", "fallback"},
		{"近期未服用抗血小板药物。", "history"},
		{"He has had difficulty controlling his blood glucose levels.", "fallback"},
		{"Segmented neutrophils 56%", "lab value"},
		{"His temperature is 38°C (100.4°F), pulse is 93/min.", "vital signs"},
		{"体温38.5℃，脉搏110次/分。", "vital signs"},
		{"He returns for blood pressure management.", "fallback"},
		{"外院予抗生素静滴3天体温不退，2天前出现皮疹。", "fallback"},
		{"母亲患有高血压。", "fallback"},
		{"Physical examination shows bilateral conjunctival injection.", "physical examination"},
		{"Vital signs are within normal limits.", "physical examination"},
		{"The patient appears pale and diaphoretic.", "physical examination"},
		{"腹软，右下腹压痛。", "physical examination"},
		{"舌淡胖边有齿痕，苔薄白，脉细弱。", "physical examination"},
		{"A 39-year-old man comes to the physician because of chest pain.", "complaint"},
		{"主诉：胸痛2天。", "complaint"},
		{"He has a 5-year history of untreated hypertension.", "history"},
		{"既往糖尿病病史5年。", "history"},
		{"Plan discussed with family.", "fallback"},
	}
	for _, tt := range tests {
		_, why := Classify("", base.TierNone, tt.text)
		if why.By != ByTextRule || why.Name != tt.rule {
			t.Errorf("Classify(%q) decided by %q, want text rule %q", tt.text, why, tt.rule)
		}
	}
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
