package clinical

import (
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/text"
)

// TypeEntry is one row of the type table: a canonical document type (an
// EMR component or a publication type), its tier, and other spellings that
// mean the same. Matching ignores case, spaces, hyphens, underscores and
// dots, so "X-ray", "x ray" and "XRAY" all match "xray".
type TypeEntry struct {
	Type    string
	Tier    base.Tier
	Aliases []string
	Note    string // why this tier, shown in docs/ingest.md
}

// TypeTable maps document types to tiers, most objective first; when a
// type names two entries (a Chinese type containing both 超声 and 活检), the
// earlier one wins. Literature types follow M-Eval's study-type ranking;
// see the package documentation. Read-only.
var TypeTable = []TypeEntry{
	{"pathology", base.T1, []string{"pathology report", "histology", "histopathology", "surgical pathology", "病理", "病理报告", "病理诊断", "组织病理", "免疫组化", "冰冻病理", "anatomía patológica", "patología", "anatomopathologie", "pathologie", "病理診断", "病理組織"}, "gold standard: tissue diagnosis"},
	{"biopsy", base.T1, []string{"biopsies", "活检", "穿刺活检", "活组织检查", "biopsia", "biopsie", "生検"}, "gold standard: tissue diagnosis"},
	{"cytology", base.T1, []string{"cytopathology", "bone marrow", "细胞学", "骨髓细胞学", "骨髓穿刺", "骨髓象", "流式细胞", "流式细胞术", "citología", "cytologie", "zytologie", "細胞診"}, "gold standard: cell diagnosis"},
	{"genetic", base.T1, []string{"gene", "genetic test", "genetics", "genomic", "molecular", "mutation", "基因", "基因检测", "分子病理", "genética", "génétique", "genetik", "遺伝子検査", "遗传学", "染色体", "核型", "分子检测", "基因测序"}, "gold standard: genetic test"},
	{"allergy", base.T1, []string{"allergies", "allergy record", "过敏", "过敏史", "药物过敏", "alergia", "alergias", "allergie", "allergien", "アレルギー", "アレルギー歴"}, "documented allergy: must never be lost"},
	{"meta-analysis", base.T1, []string{"meta analysis", "荟萃分析", "meta分析"}, "literature: top of the evidence hierarchy"},
	{"systematic review", base.T1, []string{"系统评价", "系统综述"}, "literature: top of the evidence hierarchy"},
	{"guideline", base.T1, []string{"guidelines", "clinical practice guideline", "指南", "临床指南", "诊疗指南"}, "literature: evidence-based synthesis of reviews (medkb's choice)"},
	{"lab", base.T2, []string{"labs", "laboratory", "lab test", "blood test", "检验", "化验", "实验室检查", "实验室", "检验结果", "血常规", "生化", "尿常规", "血气分析", "血气", "凝血功能", "凝血", "肝功能", "肾功能", "培养", "药敏", "microbiology", "culture", "serology", "urinalysis", "微生物", "病原学", "血清学", "肿瘤标志物", "laboratorio", "analítica", "análisis", "hemograma", "bioquímica", "biologie", "bilan biologique", "laborwerte", "blutbild", "検査", "血液検査", "検査所見", "生化学検査", "核酸检测", "甲状腺功能", "甲功", "血脂", "血糖", "糖化血红蛋白", "电解质", "心肌酶", "心肌标志物", "尿液分析", "粪便常规", "便常规", "脑脊液", "血沉", "免疫学检查"}, "objective examination"},
	{"auxiliary examination", base.T2, []string{"investigations", "辅助检查", "辅检", "实验室及辅助检查"}, "objective examination: labs and imaging together"},
	{"imaging", base.T2, []string{"radiology", "影像", "影像学", "放射", "imagen", "radiología", "imagerie", "radiologie", "bildgebung", "画像検査", "画像所見", "画像診断", "angiography", "angiogram", "造影", "血管造影", "冠脉造影", "DSA"}, "objective examination"},
	{"ct", base.T2, []string{"ct scan", "computed tomography", "增强ct", "tac", "scanner", "tomodensitométrie", "computertomographie"}, "objective examination"},
	{"mri", base.T2, []string{"mr", "magnetic resonance", "磁共振", "核磁", "核磁共振", "resonancia magnética", "irm", "mrt"}, "objective examination"},
	{"xray", base.T2, []string{"radiograph", "chest xray", "cxr", "x线", "x光", "胸片", "radiografía", "radiographie", "röntgen", "レントゲン", "mammography", "mammogram", "钼靶"}, "objective examination"},
	{"ultrasound", base.T2, []string{"ultrasonography", "sonography", "echo", "echocardiography", "echocardiogram", "doppler", "超声", "b超", "彩超", "超声心动图", "ecografía", "ecocardiograma", "échographie", "sonographie", "ultraschall", "エコー", "超音波", "超音波検査"}, "objective examination"},
	{"endoscopy", base.T2, []string{"colonoscopy", "gastroscopy", "bronchoscopy", "egd", "内镜", "胃镜", "肠镜", "结肠镜", "支气管镜", "endoscopia", "endoscopie", "endoskopie", "内視鏡", "喉镜", "鼻咽镜", "膀胱镜", "宫腔镜", "阴道镜", "colposcopy", "cystoscopy"}, "objective examination"},
	{"nuclear", base.T2, []string{"nuclear medicine", "pet", "pet ct", "spect", "scintigraphy", "bone scan", "核医学", "骨扫描"}, "objective examination"},
	{"ecg", base.T2, []string{"ekg", "electrocardiogram", "electrocardiography", "holter", "心电图", "动态心电图", "electrocardiograma", "électrocardiogramme", "心電図"}, "objective examination"},
	{"function test", base.T2, []string{"pulmonary function", "pft", "spirometry", "eeg", "emg", "audiometry", "肺功能", "脑电图", "肌电图", "骨密度", "dxa", "动态血压", "胎心监护", "nst", "ctg", "cardiotocography"}, "objective examination"},
	{"rct", base.T2, []string{"randomized controlled trial", "randomised controlled trial", "trial", "clinical trial", "随机对照试验", "临床试验"}, "literature: randomised evidence"},
	{"exam", base.T3, []string{"physical exam", "physical examination", "examination", "vital signs", "vitals", "体格检查", "查体", "体检", "专科检查", "专科情况", "生命体征", "舌象", "脉象", "舌脉", "exploración física", "examen físico", "signos vitales", "constantes vitales", "examen clinique", "körperliche untersuchung", "身体所見", "理学所見", "バイタルサイン", "神经系统检查", "四诊", "舌诊", "脉诊"}, "professional observation"},
	{"cohort", base.T3, []string{"cohort study", "prospective cohort", "retrospective cohort", "observational", "队列研究"}, "literature: observational evidence"},
	{"case-control", base.T3, []string{"case control study", "病例对照", "病例对照研究"}, "literature: observational evidence"},
	{"case report", base.T3, []string{"case series", "病例报告", "个案报告"}, "literature: observational evidence"},
	{"complaint", base.T4, []string{"chief complaint", "cc", "主诉", "motivo de consulta", "motif de consultation", "主訴"}, "subjective description"},
	{"history", base.T4, []string{"hpi", "history of present illness", "past history", "medical history", "现病史", "既往史", "病史", "个人史", "家族史", "婚育史", "月经史", "手术史", "用药史", "输血史", "外伤史", "预防接种史", "enfermedad actual", "antecedentes", "anamnesis", "antécédents", "histoire de la maladie", "anamnese", "vorgeschichte", "現病歴", "既往歴", "家族歴"}, "subjective description"},
	{"narrative", base.T4, []string{"patient narrative", "自述", "患者自述"}, "subjective description"},
	{"expert opinion", base.T4, []string{"opinion", "consensus", "expert consensus", "editorial", "narrative review", "专家意见", "专家共识"}, "literature: bottom of the evidence hierarchy"},
}

// TierOfType returns the tier the type table gives typ, and whether typ is
// in the table.
func TierOfType(typ string) (base.Tier, bool) {
	e, ok := lookupType(typ)
	return e.Tier, ok
}

// lookupType finds typ in the table, as written or else read in Simplified
// Chinese (a Traditional 檢驗 is 检验): as a whole; then word by word ("CT
// chest", "pathology report"), Latin and CJK runs being separate words
// ("胸部CT"); then, for Chinese aliases, as a part ("肾穿刺病理报告").
func lookupType(typ string) (TypeEntry, bool) {
	if e, ok := lookupWritten(typ); ok {
		return e, true
	}
	if simple := text.Simplified(typ); simple != typ {
		return lookupWritten(simple)
	}
	return TypeEntry{}, false
}

// lookupWritten is lookupType for typ as written.
func lookupWritten(typ string) (TypeEntry, bool) {
	whole := compact(typ)
	if whole == "" {
		return TypeEntry{}, false
	}
	if e, ok := findEntry(func(name string) bool { return name == whole }); ok {
		return e, true
	}
	words := typeWords(typ)
	if e, ok := findEntry(func(name string) bool { return slices.Contains(words, name) }); ok {
		return e, true
	}
	return findEntry(func(name string) bool {
		return hasCJK(name) && strings.Contains(whole, name)
	})
}

// findEntry returns the first entry whose type or an alias satisfies
// match (both compacted).
func findEntry(match func(name string) bool) (TypeEntry, bool) {
	for i, names := range compactNames() {
		if slices.ContainsFunc(names, match) {
			return TypeTable[i], true
		}
	}
	return TypeEntry{}, false
}

// compactNames holds, for each entry of TypeTable, its type and then its
// aliases, compacted: every document and chunk is looked up, so the
// table is compacted once rather than at each lookup.
var compactNames = sync.OnceValue(func() [][]string {
	out := make([][]string, len(TypeTable))
	for i, e := range TypeTable {
		out[i] = append(out[i], compact(e.Type))
		for _, a := range e.Aliases {
			out[i] = append(out[i], compact(a))
		}
	}
	return out
})

// compact lower-cases s and drops spaces, hyphens, underscores and dots.
func compact(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || strings.ContainsRune("-_.", r) {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// typeWords splits a type into compacted words at spaces, slashes and
// commas, and where Latin text meets CJK text.
func typeWords(typ string) []string {
	var words []string
	var cur strings.Builder
	prevCJK := false
	flush := func() {
		if w := compact(cur.String()); w != "" {
			words = append(words, w)
		}
		cur.Reset()
	}
	for _, r := range typ {
		if unicode.IsSpace(r) || strings.ContainsRune("/,;，；、", r) {
			flush()
			continue
		}
		if isCJK := text.IsCJK(r); isCJK != prevCJK {
			flush()
			prevCJK = isCJK
		}
		cur.WriteRune(r)
	}
	flush()
	return words
}

func hasCJK(s string) bool {
	return strings.IndexFunc(s, text.IsCJK) >= 0
}
