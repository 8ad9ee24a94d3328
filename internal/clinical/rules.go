package clinical

import (
	"regexp"
	"slices"
	"strings"

	"github.com/medkb/medkb/internal/base"
)

// TextRule is one rule of the text classifier: when any of its terms occurs
// in a text (and the rule's extra check, if any, agrees), the text gets the
// rule's tier, and SegmentType gets the rule's segment.
//
// Terms are matched without regard to ASCII case, except acronyms written in
// capitals ("CT", "PET", "ALT"), which match only in capitals. A Latin term
// matches whole words, or word prefixes when it ends in "*" ("biops*"
// matches biopsy and biopsies); a Chinese term matches anywhere; a term
// written "re:..." is a regular expression, and one written
// "re(a|b):..." a regular expression tried only on texts that contain a or
// b (in lower case), which spares most texts its cost.
type TextRule struct {
	Name    string
	Tier    base.Tier
	Segment string // "pathology", "lab", "exam", ...; "" for none
	Terms   []string
	Ignore  []string // terms whose hits do not count (病理反射 is an exam sign)
	Except  string   // what Ignore and the extra check leave out, in words
	Summary string   // what the rule fires on, in words, when Terms are unreadable
	// SkipInNarrative: the rule does not fire on a history narrative, which
	// retells a test or finding rather than reports it (see NarrativeCue).
	// Classify checks it; Matches does not.
	SkipInNarrative bool
	// Narrative marks the narrative rule: Classify lets it fire only on a
	// text where a rule was skipped for being a narrative, so that the
	// reason names why a text that names a test is T4; other narratives go
	// on to the complaint and history rules.
	Narrative bool

	terms  terms
	ignore terms
	checks []func(text, lower string, start, end int) bool // all must agree for a hit to count
}

// Matches reports whether the rule's terms and checks fire on s, without
// regard to SkipInNarrative.
func (r *TextRule) Matches(s string) bool {
	return r.matches(s, asciiLower(s), nil)
}

// matches is Matches with the lower-cased text already at hand, and, if
// found is not nil, the rules' literals that occur in s (ruleLiterals). A
// hit inside an ignored term does not count; ignored terms are looked for
// only once there is a hit, which most texts never give most rules.
func (r *TextRule) matches(s, lower string, found literalSet) bool {
	var ignored [][2]int
	ignoredFound := false
	return r.terms.eachIn(s, lower, found, func(start, end int) bool {
		if !ignoredFound {
			r.ignore.each(s, lower, func(start, end int) bool {
				ignored = append(ignored, [2]int{start, end})
				return false
			})
			ignoredFound = true
		}
		for _, ig := range ignored {
			if start < ig[1] && end > ig[0] {
				return false
			}
		}
		for _, check := range r.checks {
			if !check(s, lower, start, end) {
				return false
			}
		}
		return true
	})
}

// rule builds a TextRule, compiling its terms.
func rule(name string, tier base.Tier, segment string, terms ...string) TextRule {
	return TextRule{Name: name, Tier: tier, Segment: segment, Terms: terms, terms: compileTerms(terms)}
}

// ignoring returns r that ignores hits inside the given terms; why says
// what they are, for docs/ingest.md.
func (r TextRule) ignoring(why string, terms ...string) TextRule {
	r.Ignore = append(slices.Clip(r.Ignore), terms...)
	r.ignore = compileTerms(r.Ignore)
	r.Except = joinNonEmpty(r.Except, why)
	return r
}

// checking returns r that counts a hit only when check agrees too; why
// says what the check leaves out, for docs/ingest.md.
func (r TextRule) checking(why string, check func(text, lower string, start, end int) bool) TextRule {
	r.checks = append(slices.Clip(r.checks), check)
	r.Except = joinNonEmpty(r.Except, why)
	return r
}

// finding returns r that also fires on the spans find returns.
func (r TextRule) finding(find func(string) [][2]int) TextRule {
	r.terms.finders = append(slices.Clip(r.terms.finders), find)
	return r
}

// skippingNarratives returns r that does not fire on a history narrative.
func (r TextRule) skippingNarratives() TextRule {
	r.SkipInNarrative = true
	r.Except = joinNonEmpty(r.Except, narrativeWhy)
	return r
}

const narrativeWhy = "a history narrative that retells it (rule narrative)"

// retelling returns r as the narrative rule (see TextRule.Narrative).
func (r TextRule) retelling() TextRule {
	r.Narrative = true
	r.Except = joinNonEmpty(r.Except, "fires only where a rule above skipped the narrative; other narratives go on to the rules below")
	return r
}

// summarized returns r described by summary in docs/ingest.md instead of
// by its terms.
func (r TextRule) summarized(summary string) TextRule {
	r.Summary = summary
	return r
}

func joinNonEmpty(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// notPlanned is the test rules' check: a clause about a test not yet done
// ("a biopsy is scheduled", "labs are pending", 拟行胃镜) names the test but
// reports no result, so it does not count. lower is asciiLower(s).
func notPlanned(s, lower string, start, end int) bool {
	from, to := clauseAround(s, start, end)
	return !planned.MatchString(s[from:to], lower[from:to])
}

var planned = gatedRe{
	re:    regexp.MustCompile(`(?i)\b(?:is|are|was|were|be|been) (?:scheduled|ordered|pending|planned|requested)\b|待查|待回报|拟行|预约|建议行|待完善`),
	exact: []string{"待查", "待回报", "拟行", "预约", "建议行", "待完善"},
	fold:  []string{"scheduled", "ordered", "pending", "planned", "requested"},
}

const plannedWhy = "planned or pending tests (is scheduled, are ordered, 拟行, 建议行)"

// surgicalPathology is the form of a Chinese surgical pathology report
// without its heading: the site in brackets, then a tissue diagnosis in the
// first clause ("（胃窦）黏膜慢性炎", "（阑尾）急性化脓性阑尾炎"). A bracket
// with a date or number, a numbered list item or a fluid (血, 尿, 痰, 液)
// is not a site.
const surgicalPathology = `re(（|\():^\s*[（(][^（）()\d一二三四五六七八九十血尿便痰液]{1,16}[）)][^，。；,;]{0,30}?(?:炎|癌|瘤|增生|化生|异型|坏死|肉芽肿|上皮内|息肉|囊肿)`

// notSampling is the pathology rule's check: a clause that takes a sample
// (取, 钳, 刷检, 穿刺, 送, 2块, 3针, biopsies were taken) and states no
// result (示, 诊断, a tissue diagnosis: 癌, 炎, carcinoma) is part of the
// procedure that took it (an endoscopy, a colposcopy, an EUS), whose report
// is T2; the tissue diagnosis comes later, in a report of its own.
func notSampling(s, lower string, start, end int) bool {
	from, to := clauseAround(s, start, end)
	clause := s[from:to]
	return !sampling.MatchString(clause, lower[from:to]) || sampleResult.MatchString(clause)
}

var (
	sampling = gatedRe{
		re:    regexp.MustCompile(`(?i)[取钳送]|刷检|穿刺|标本|\d\s*[块针]|多点活检|行活检|\b(?:taken|obtained|performed|sent|submitted)\b`),
		exact: []string{"取", "钳", "送", "刷检", "穿刺", "标本", "块", "针", "多点活检", "行活检"},
		fold:  []string{"taken", "obtained", "performed", "sent", "submitted"},
	}
	sampleResult = regexp.MustCompile(`(?i)[示：:]|报告|诊断|符合|癌|瘤|炎|增生|化生|异型|坏死|肉芽肿|上皮内|` +
		`\b(?:show\w*|reveal\w*|demonstrat\w*|consistent|confirm\w*|diagnos\w*|read as|\w*carcinoma|\w*adenoma|lymphoma|sarcoma|dysplasia|metaplasia|malignan\w*|benign)\b`)
)

const samplingWhy = "a clause that takes a sample and states no result (取活检2块, 刷检送细胞学, 穿刺3针, 送病理, biopsies were taken)"

// TextRules is the ordered text classifier: the first rule that fires
// decides, so the most objective evidence wins when a text mixes several
// (a CT report that quotes the complaint is T2). Texts no rule matches are
// T4. Read-only.
var TextRules = []TextRule{
	rule("pathology", base.T1, "pathology",
		"biops*", "histolog*", "histopatholog*", "patholog*", "cytolog*", "immunohistochem*",
		"immunostain*", "frozen section", "bone marrow aspirat*", "fine-needle aspirat*",
		"fine needle aspirat*", "FNA", "病理", "活检", "活组织", "免疫组化", "细胞学", "骨髓穿刺", "骨髓涂片", "冰冻切片",
		"骨髓象", "骨髓增生", "上皮内病变", "上皮内瘤变", surgicalPathology,
		"patológ*", "patologí*", "histológ*", "citológ*", "anatomopatholog*", "histologique", "cytologie",
		"生検", "組織診", "細胞診", "免疫染色").
		ignoring("病理反射 and 病理征 are exam signs; 病理性 and pathologic(al) qualify a sign, not a tissue (病理性杂音, pathologic Q waves, pathologic fracture)",
			"病理反射", "病理征", "病理性", `re(patholog):\bpatholog(?:ic|ical)\s+(?:reflex\w*|murmur\w*|q[- ]?waves?|fractures?|jaundice|signs?)`).
		checking(plannedWhy, notPlanned).
		checking(samplingWhy, notSampling).
		skippingNarratives(),
	rule("genetic test", base.T1, "pathology",
		"mutation*", "genetic test*", "genetic analysis", "genetic screening", "genotyp*", "karyotyp*",
		"gene rearrangement", "gene fusion", "sequencing", "germline", "pathogenic variant", "likely pathogenic",
		"variant of uncertain significance", "基因", "突变", "染色体", "胚系", "致病性变异").
		checking(plannedWhy, notPlanned).
		skippingNarratives(),
	rule("allergy", base.T1, "allergy",
		"allergic to", "allergic reaction to", "allergy to", "allergies to", "anaphyla*", "过敏", "皮试阳性",
		"alergia*", "alérgic*", "anafila*", "allergie à", "allergie au", "allergie aux", "allergique*", "Allergie gegen", "allergisch*", "アレルギー", "アナフィラキシー",
		`re(后):(?:服|用|注射|静滴|输注)[^，。；]{0,12}后[^。；]{0,4}(?:出现|发生|引起)[^。；]{0,8}(?:荨麻疹|皮疹|喉头水肿|过敏性休克|粒细胞缺乏)`).
		ignoring("过敏性 (allergic rhinitis, asthma) names a disease, though 过敏性休克 (anaphylactic shock) is an allergy; 抗过敏 names a treatment, a tuberculin (PPD) skin test is no allergy test, 知覚過敏 and 光線過敏 (Japanese) are hyperaesthesia and photosensitivity",
			`re(过敏性):过敏性(?:[^休]|$)`, "抗过敏", "结核菌素皮试", "PPD皮试", "知覚過敏", "知覚过敏", "知觉过敏", "光線過敏", "光线过敏").
		checking("negated in its clause (no known, denies, 否认, 无)", notNegated),
	rule("imaging", base.T2, "imaging",
		"CT", "CTA", "CTPA", "CT scan", "computed tomography", "MRI", "MRA", "magnetic resonance", "x-ray*", "xray*", "radiograph*",
		"ultrasound*", "ultrasonogra*", "sonogra*", "echocardiogra*", "doppler", "angiogra*", "arteriogra*",
		"venogra*", "mammogra*", "PET", "scintigra*", "scan", "fluoroscop*", "imaging", "DEXA", "DXA",
		"CXR", "MRCP", "DWI", "FLAIR", "T1WI", "T2WI", "T1-weighted", "T2-weighted", "hypoechoic", "hyperechoic", "anechoic",
		"hypodense", "hyperdense", "hypoattenuat*", "ground-glass", "air bronchogram*", "ejection fraction", "LVEF",
		"影像", "磁共振", "核磁", "X线", "X光", "胸片", "平片", "位片", "超声", "B超", "彩超", "造影", "骨扫描", "骨ECT", "核素", "骨密度",
		"回声", "声影", "液性暗区", "CDFI", "密度影", "高密度", "低密度", "磨玻璃", "高信号", "低信号", "BI-RADS", "TI-RADS",
		"射血分数", "室壁运动", "舒张末内径", "肺动脉收缩压",
		"TAC de", "tomografía*", "resonancia*", "radiografía*", "ecografía*", "ecocardiogra*", "gammagrafía*",
		"IRM", "scanner thoraci*", "scanner abdomin*", "scanner cérébral", "échograph*", "Échograph*",
		"échocardiograph*", "Échocardiograph*", "tomodensitom*", "Röntgen*", "MRT des", "MRT der",
		"Computertomogra*", "Ultraschall*", "画像検査", "画像所見", "画像診断", "超音波", "エコー", "レントゲン").
		checking(plannedWhy, notPlanned).
		skippingNarratives(),
	rule("ECG", base.T2, "ecg",
		"ECG", "EKG", "electrocardiogra*", "Holter", "心电图", "électrocardiogra*", "Électrocardiogra*", "心電図",
		"ST-segment", "ST segment", "ST elevation*", "ST depression*", "ST changes", "QRS", "QTc", "QT interval",
		"PR interval", "T-wave*", "T wave*", "Q waves", "axis deviation", "bundle branch block", "sinus rhythm",
		"sinus tachycardia", "sinus bradycardia", "ventricular rate",
		"导联", "ST段", "ST-T", "T波", "P波", "Q波", "PR间期", "QT间期", "窦性心律", "窦性心动", "电轴", "心室率",
		"传导阻滞").
		checking(plannedWhy, notPlanned).
		skippingNarratives(),
	rule("endoscopy", base.T2, "imaging",
		"endoscop*", "colonoscop*", "gastroscop*", "bronchoscop*", "cystoscop*", "laryngoscop*",
		"sigmoidoscop*", "arthroscop*", "EGD", "ERCP", "EUS", "胃镜", "肠镜", "内镜", "支气管镜", "膀胱镜", "喉镜", "鼻咽镜",
		"阴道镜", "宫腔镜", "内視鏡").
		checking(plannedWhy, notPlanned).
		skippingNarratives(),
	rule("function test", base.T2, "lab",
		"spirometr*", "pulmonary function", "lung function", "audiometr*", "audiogra*", "EEG",
		"electroencephalogra*", "electromyogra*", "EMG", "nerve conduction", "stress test*",
		"polysomnogra*", "catheteriz*", "vascular resistance", "cardiac output", "wedge pressure",
		"肺功能", "脑电图", "肌电图", "多导睡眠", "心导管", "胎心监护", "NST").
		checking(plannedWhy, notPlanned).
		skippingNarratives(),
	rule("laboratory", base.T2, "lab",
		"laborator*", "lab", "labs", "serum", "plasma", "blood count", "CBC", "hemoglobin", "haemoglobin",
		"hematocrit", "mean corpuscular", "MCV", "leukocyte*", "white blood cell*", "WBC", "platelet*",
		"erythrocyte sedimentation", "ESR", "C-reactive protein", "CRP", "creatinine", "urea nitrogen",
		"BUN", "glucose", "HbA1c", "troponin*", "blood gas", "pH", "pCO2", "PaCO2", "PaO2", "HCO3*",
		"urinalysis", "urine culture", "urine toxicology", "urine drug screen", "culture*", "Gram stain",
		"smear", "titer*", "antibod*", "antigen*", "assay*", "PCR", "ELISA", "Western blot",
		"electrophoresis", "flow cytometry", "fluorescen*", "microscop*", "pregnancy test",
		"toxicology screen", "cerebrospinal fluid", "CSF", "lumbar puncture", "serolog*", "ferritin",
		"TSH", "D-dimer", "lactate", "bilirubin", "aminotransferase*", "ALT", "AST",
		"alkaline phosphatase", "albumin", "INR", "prothrombin time", "thromboplastin time", "lipase",
		"amylase", "electrolytes", "occult blood",
		`re(test):\btest(?:s|ing)?\b[^.;]{0,40}\b(?:positive|negative)\b`,
		"血常规", "尿常规", "便常规", "生化", "肝功能", "肾功能", "肌酐", "尿素氮", "血红蛋白",
		"白细胞", "血小板", "血糖", "糖化血红蛋白", "肌钙蛋白", "转氨酶", "胆红素", "白蛋白", "血气",
		"电解质", "化验", "检验", "实验室", "培养", "抗体", "抗原", "尿蛋白", "血沉", "C反应蛋白",
		"降钙素原", "凝血", "二聚体", "脑脊液", "eGFR", "隐血", "涂片", "抗酸染色", "呼气试验", "GeneXpert",
		"甲状腺功能", "甲功", "乙肝两对半", "乙肝五项", "HBsAg", "HBeAg", "抗-HBc", "抗-HBs",
		"analítica", "hemograma", "bioquímica", "gasometría", "creatinina", "hemoglobina", "leucocitos",
		"plaquetas", "glucemia", "bilan biologique", "hémoglobine", "créatinine", "plaquettes",
		"Blutbild", "Kreatinin", "Hämoglobin", "Leukozyten", "Thrombozyten",
		"血液検査", "検査所見", "白血球", "ヘモグロビン", "クレアチニン", "生化学").
		ignoring("抗血小板 names a drug class; glucose control and 血糖控制 a history",
			"抗血小板", "血糖控制", "控制血糖", `re(glucose):\bcontrol\w* (?:\w+ ){0,2}(?:blood )?glucose|glucose control`).
		checking(plannedWhy, notPlanned).
		skippingNarratives(),
	rule("vital signs", base.T3, "exam",
		"temperature", "pulse", "blood pressure", "respirations", "respiratory rate", "heart rate",
		"oxygen saturation", "pulse oximetry", "SpO2", "BMI", "BP", "体温", "血压", "心率", "脉搏",
		"呼吸频率", "血氧饱和度", `re(℃|°|hg|次/分|/min|bpm):\d\s*(?:℃|°C|°F|mm ?Hg|次/分|/min\b|bpm\b)`).
		ignoring("高血压 and 低血压 name diseases", "高血压", "低血压").
		checking("a sign named without a number after it (blood pressure management)", withNumber).
		skippingNarratives(),
	rule("physical examination", base.T3, "exam",
		"examination", "exam", "vital signs", "auscultat*", "palpat*", "percuss*", "on inspection",
		"tender*", "nontender", "non-tender", "murmur*", "bruit*", "rales", "crackles", "wheez*",
		"rhonchi", "reflex*", "is alert", "oriented", "in distress", "diaphoretic", "pallor",
		"cyanosis", "clubbing", "scleral icterus", "conjunctival*", "pupils", "nystagmus",
		"capillary refill", "skin turgor", "mucous membranes", "jugular venous", "range of motion",
		"muscle strength", "Babinski", "Kernig", "Brudzinski", "Romberg", "gait", "guarding",
		"breath sounds", "bowel sounds", "heart sounds", "lymphadenopathy", "hepatomegaly",
		"splenomegaly", "pitting edema", "fundoscop*", "otoscop*", "HEENT", "pupil*", "palpable", "regular rate and rhythm",
		"irregularly irregular", "no edema", "plantar", "pronator drift", "facial droop", "asterixis", "shifting dullness",
		"palmar erythema", "dorsalis pedis", "GCS", "Glasgow Coma", "NIHSS",
		`re(appears):\bappears (?:acutely |chronically |mildly |severely )?(?:ill|unwell|healthy|pale|lethargic|confused|anxious|uncomfortable|comfortable|well|cachectic|jaundiced|cyanotic|dehydrated|in)\b`,
		"查体", "体格检查", "体检", "专科情况", "专科检查", "生命体征", "听诊", "触诊", "触及", "叩诊",
		"视诊", "压痛", "反跳痛", "肌紧张", "杂音", "啰音", "呼吸音", "神志", "巩膜", "黄染",
		"结膜", "发绀", "面色", "瞳孔", "对光反射", "肌力", "巴氏征", "颈强直", "心律齐", "腹软",
		"双肺", "肝脾", "淋巴结肿大", "凹陷性水肿", "病理反射", "病理征", "生理反射",
		"神清", "查体合作", "病容", "贫血貌", "自主体位", "被动体位", "强迫体位", "皮肤黏膜", "浅表淋巴结", "扪及", "闻及",
		"叩击痛", "叩痛", "颈软", "颈静脉", "气管居中", "胸廓", "语颤", "心界", "心尖搏动", "律齐", "心音", "肠鸣音",
		"浊音", "过清音", "无水肿", "不肿", "肌张力", "腱反射", "脑膜刺激征", "鼻唇沟", "伸舌", "三凹征", "杵状指",
		"皮温", "动脉搏动", "扁桃体", "咽充血", "咽部充血", "鼓膜", "宫高", "胎方位", "先露", "宫口", "指检", "指诊",
		"指套", "眼底", "肝掌", "蜘蛛痣", "扑翼样震颤", "毛细血管再充盈", "体征", "共济", "指鼻试验", "跟膝胫试验",
		"浮髌试验", "抽屉试验", "直腿抬高", "步态", "跛行", `re(征):[^合]征\s*[（(]?\s*(?:阳性|阴性|[+\-＋－])`,
		"舌象", "舌质", "舌苔", "舌淡", "舌红", "舌暗", "舌紫", "舌胖", "苔薄", "苔白", "苔黄", "苔腻", "少苔",
		"脉象", "脉细", "脉弦", "脉滑", "脉沉", "脉浮", "脉数", "脉缓", "脉涩", "脉弱",
		"exploración", "examen físico", "auscultación", "palpación", "signos vitales", "constantes vitales",
		"examen clinique", "körperliche Untersuchung", "Auskultation", "身体所見", "理学所見", "聴診", "バイタル").
		skippingNarratives(),
	rule("lab value", base.T2, "lab").finding(findLabValues).
		summarized("a number with a laboratory unit: mg/dL, mmol/L, µmol/L, g/L, U/L, IU/L, ng/mL, pg/mL, ×10^9/L, /mm3, mEq/L, mm/h, %, ...").
		skippingNarratives(),
	rule("narrative", base.T4, "history").finding(findNarrative).summarized(narrativeSummary).retelling(),
	rule("complaint", base.T4, "complaint",
		"complain*", "presents with", "presented with", "comes to", "came to", "brought to",
		"because of", "reports", "reported", "c/o", "chief complaint", "feels", "describes",
		"主诉", "自述", "诉", "自觉", "感到", `re(因):因.{0,20}(?:入院|就诊|来诊)`,
		"motivo de consulta", "motif de consultation", "主訴"),
	rule("history", base.T4, "history",
		"history", "diagnosed with", "medications include", "current medications", "takes", "taking",
		"smokes", "smoked", "drinks", "alcohol", "underwent", "was treated", "denies", "病史", "既往",
		"个人史", "家族史", "吸烟", "饮酒", "手术史", "服用", "否认",
		"antecedentes", "antécédents", "Anamnese", "Vorgeschichte", "既往歴", "現病歴"),
}

// withNumber is the vital-sign rule's check: the hit holds a number or one
// follows within a few words ("pulse is 93/min", "血压150/95mmHg"), before
// the Chinese clause ends ("体温不退，2天前…" names no temperature).
func withNumber(s, _ string, start, end int) bool {
	window := s[start:min(len(s), end+30)]
	if end := strings.IndexAny(window, "，；。"); end >= 0 {
		window = window[:end]
	}
	return strings.IndexFunc(window, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0
}

// notNegated is the allergy rule's check: the clause around the hit must
// not deny the allergy ("no known drug allergies", "否认药物过敏史").
func notNegated(s, lower string, start, end int) bool {
	from, to := clauseAround(s, start, end)
	return !negation.MatchString(s[from:to], lower[from:to])
}

var negation = gatedRe{
	re:    regexp.MustCompile(`(?i)\b(?:no known|no history of|denies|denied|without|negative for|nkda|niega|niegan|aucune?|keine?)\b|否认|无|無|未|なし`),
	exact: []string{"否认", "无", "無", "未", "なし"},
	fold:  []string{"no known", "no history of", "denies", "denied", "without", "negative for", "nkda", "niega", "aucun", "kein"},
}

// clauseAround returns the bounds of the clause of s that holds
// s[start:end], bounded by sentence and clause punctuation (, ; . ! ? ，
// ； 。 ！ ？ and line ends): s[from:to].
//
// It looks at bytes, not runes: the ASCII stops are single bytes, which
// no multi-byte rune holds, and the others are the three bytes of their
// UTF-8 form, which start a rune wherever they occur, even in a string
// that is not valid UTF-8.
func clauseAround(s string, start, end int) (from, to int) {
	from = 0
	for i := start - 1; i >= 0; i-- {
		if clauseStopEndingAt(s[:i+1]) > 0 {
			from = i + 1
			break
		}
	}
	to = len(s)
	for i := end; i < len(s); i++ {
		if clauseStopAt(s[i:]) {
			to = i
			break
		}
	}
	return from, to
}

// clauseStopAt reports whether s starts with a clause stop.
func clauseStopAt(s string) bool {
	switch s[0] {
	case ',', ';', '.', '!', '?', '\n':
		return true
	case 0xEF: // ，；！？ are EF BC 8C, EF BC 9B, EF BC 81, EF BC 9F
		return len(s) >= 3 && s[1] == 0xBC && (s[2] == 0x8C || s[2] == 0x9B || s[2] == 0x81 || s[2] == 0x9F)
	case 0xE3: // 。 is E3 80 82
		return len(s) >= 3 && s[1] == 0x80 && s[2] == 0x82
	}
	return false
}

// clauseStopEndingAt returns the length of the clause stop that ends s,
// or 0.
func clauseStopEndingAt(s string) int {
	n := len(s)
	switch s[n-1] {
	case ',', ';', '.', '!', '?', '\n':
		return 1
	case 0x8C, 0x9B, 0x81, 0x9F, 0x82:
		if n >= 3 && (s[n-3] == 0xEF || s[n-3] == 0xE3) && clauseStopAt(s[n-3:]) {
			return 3
		}
	}
	return 0
}
