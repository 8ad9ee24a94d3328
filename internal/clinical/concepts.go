package clinical

// Concept bridges the words a clinician asks with and the words a record
// is written in: "肾功能怎么样" is answered by a line of 肌酐 and 尿素氮 that
// never says 肾功能, "how is his heart pumping" by an ejection fraction.
// When a question names a concept (Names), a text that holds any of its
// Names or Members answers that part of the question. Matching follows
// the text rules (TextRule): Latin words whole or, ending in "*", as
// prefixes; acronyms in capitals as written; Chinese anywhere.
type Concept struct {
	Name    string // what the concept is, in words
	Names   []string
	Members []string

	names, members terms
	scan           literalScan // names' and members' literals, for Mentions
}

// Text is a text to count concepts' mentions in (Concept.Mentions), with
// its lower-cased copy made once for all the concepts asked of it.
type Text struct{ s, lower string }

// NewText prepares s for Mentions.
func NewText(s string) Text { return Text{s, asciiLower(s)} }

// Mentions counts the places where t holds one of the concept's names or
// members, overlapping ones once ("尿蛋白定量" holds 尿蛋白 and 蛋白定量).
// The literal scan gives the occurrences in order of start, so that each
// counts when it starts past the reach of those before it.
func (c *Concept) Mentions(t Text) int {
	n, reach := 0, -1
	c.scan.each(t.s, t.lower, func(start, end int) {
		if start >= reach {
			n++
		}
		reach = max(reach, end)
	})
	return n
}

// named returns the spans of s where the concept is named (lower is
// asciiLower(s)).
func (c *Concept) named(s, lower string) [][2]int {
	var spans [][2]int
	c.names.each(s, lower, func(start, end int) bool {
		spans = append(spans, [2]int{start, end})
		return false
	})
	return spans
}

func concept(name string, names []string, members ...string) Concept {
	c := Concept{Name: name, Names: names, Members: members, names: compileTerms(names), members: compileTerms(members)}
	c.scan = newLiteralScan(c.names, c.members)
	return c
}

// Concepts is the table of question concepts: laboratory panels and the
// analytes that make them up, organ functions and the measurements that
// show them, report kinds and what their results are written as, and
// common clinical questions (allergies, infection, anaemia). Read-only.
var Concepts = []Concept{
	concept("blood count",
		[]string{"血常规", "血象", "全血细胞", "blood count", "CBC", "full blood count", "hemogram", "haemogram"},
		"白细胞", "红细胞", "血红蛋白", "血小板", "中性粒", "淋巴细胞", "WBC", "RBC", "Hb", "HGB", "PLT", "NEUT",
		"leukocyte*", "white cell*", "white blood cell*", "hemoglobin", "haemoglobin", "platelet*", "neutrophil*"),
	concept("anaemia",
		[]string{"贫血", "anemia", "anaemia", "anemic", "anaemic"},
		"血红蛋白", "红细胞", "平均红细胞体积", "红细胞压积", "铁蛋白", "Hb", "HGB", "MCV", "hemoglobin", "haemoglobin", "hematocrit", "ferritin"),
	concept("iron status",
		[]string{"缺铁", "铁代谢", "iron deficiency", "iron studies", "iron status"},
		"铁蛋白", "血清铁", "转铁蛋白", "总铁结合力", "ferritin", "transferrin", "serum iron", "TIBC"),
	concept("kidney function",
		[]string{"肾功能", "肾功", "肾脏功能", "肾损伤", "肾衰", "renal function", "kidney function", "renal failure", "kidney injury", "AKI"},
		"肌酐", "尿素氮", "尿素", "肾小球滤过率", "胱抑素", "eGFR", "GFR", "BUN", "Scr", "Cr", "creatinine", "urea", "cystatin*"),
	concept("liver function",
		[]string{"肝功能", "肝功", "肝酶", "转氨酶", "肝损伤", "liver function", "liver enzymes", "LFT", "LFTs", "transaminase*"},
		"丙氨酸氨基转移酶", "天门冬氨酸氨基转移酶", "谷丙", "谷草", "胆红素", "白蛋白", "碱性磷酸酶", "谷氨酰转",
		"ALT", "AST", "ALP", "GGT", "TBIL", "bilirubin", "albumin", "aminotransferase*", "alkaline phosphatase"),
	concept("coagulation",
		[]string{"凝血", "凝血功能", "出凝血", "coagulation", "clotting", "coag"},
		"凝血酶原", "部分凝血活酶", "纤维蛋白原", "二聚体", "PT", "APTT", "INR", "FIB", "prothrombin", "thromboplastin", "fibrinogen", "D-dimer"),
	concept("blood gas",
		[]string{"血气", "酸中毒", "碱中毒", "酸碱", "氧合", "通气", "二氧化碳潴留", "呼吸衰竭", "blood gas", "ABG", "acidosis", "alkalosis", "oxygenation", "ventilation", "respiratory failure"},
		"pH", "PaO2", "PaCO2", "PO2", "PCO2", "HCO3*", "氧分压", "二氧化碳分压", "碳酸氢", "剩余碱", "乳酸", "氧合指数", "BE", "lactate", "base excess", "bicarbonate"),
	concept("electrolytes",
		[]string{"电解质", "electrolytes", "血钾", "低钾", "高钾", "血钠", "低钠", "高钠", "potassium", "sodium", "hyperkalemia", "hyperkalaemia", "hypokalemia", "hypokalaemia", "hyponatremia", "hyponatraemia"},
		"血钾", "血钠", "血氯", "血钙", "血镁", "K+", "Na+", "potassium", "sodium", "chloride", "calcium", "magnesium"),
	concept("glucose",
		[]string{"血糖", "糖尿病控制", "blood sugar", "glucose", "glycaemic control", "glycemic control", "diabetes control"},
		"血糖", "葡萄糖", "糖化血红蛋白", "空腹血糖", "HbA1c", "GLU", "glucose"),
	concept("ketones",
		[]string{"酮体", "酮症", "ketones", "ketosis", "ketoacidosis"},
		"酮体", "尿酮", "血酮", "β-羟丁酸", "ketone*", "beta-hydroxybutyrate"),
	concept("lipids",
		[]string{"血脂", "lipids", "lipid panel", "cholesterol"},
		"胆固醇", "甘油三酯", "低密度脂蛋白", "高密度脂蛋白", "TC", "TG", "LDL", "HDL", "cholesterol", "triglyceride*"),
	concept("thyroid function",
		[]string{"甲功", "甲状腺功能", "thyroid function", "TFT", "TFTs"},
		"促甲状腺激素", "游离甲状腺素", "游离三碘", "TSH", "FT3", "FT4", "T3", "T4", "thyrotropin", "thyroxine"),
	concept("myocardial injury",
		[]string{"心肌损伤", "心肌酶", "心肌标志物", "心梗指标", "cardiac enzymes", "cardiac markers", "myocardial injury", "troponin*"},
		"肌钙蛋白", "肌酸激酶", "CK-MB", "CK", "cTnI", "cTnT", "TnI", "TnT", "troponin*", "creatine kinase"),
	concept("heart failure markers",
		[]string{"心衰指标", "心衰标志物", "利钠肽", "heart failure markers", "natriuretic"},
		"脑钠肽", "利钠肽", "BNP", "NT-proBNP", "natriuretic"),
	concept("heart function",
		[]string{"心功能", "心脏功能", "泵血", "射血", "心超", "心脏超声", "心脏彩超", "heart function", "cardiac function", "pumping", "pump function", "ventricular function", "echo"},
		"射血分数", "EF", "LVEF", "超声心动图", "心动图", "室壁运动", "ejection fraction", "echocardiogra*", "hypokinesis", "wall motion"),
	concept("inflammation",
		[]string{"炎症指标", "感染指标", "炎症", "感染", "inflammatory markers", "infection markers", "inflammation", "infection"},
		"C反应蛋白", "降钙素原", "血沉", "白细胞", "中性粒", "CRP", "PCT", "ESR", "WBC", "procalcitonin", "C-reactive protein", "white cell*", "white blood cell*"),
	concept("pathogen",
		[]string{"病原", "病原学", "病原体", "细菌", "什么菌", "培养", "pathogen", "organism", "microbiology", "culture*", "bug"},
		"培养", "涂片", "核酸", "抗原", "药敏", "杆菌", "球菌", "真菌", "支原体", "衣原体", "PCR", "NGS", "culture*", "Gram", "smear", "susceptib*", "isolated", "grew"),
	concept("resistance",
		[]string{"耐药", "药敏", "resistance", "resistant", "susceptibility", "sensitivities"},
		"耐药", "药敏", "敏感", "MRSA", "ESBL", "MIC", "resistan*", "susceptib*", "sensitive"),
	concept("tuberculosis",
		[]string{"结核", "结核菌", "TB", "tuberculosis", "mycobacteri*"},
		"抗酸", "结核分枝杆菌", "结核杆菌", "GeneXpert", "Xpert", "PPD", "T-SPOT", "干扰素释放", "acid-fast", "AFB", "mycobacteri*"),
	concept("hepatitis B",
		[]string{"乙肝", "乙型肝炎", "HBV", "hepatitis B"},
		"HBsAg", "HBeAg", "HBV-DNA", "HBV DNA", "乙肝表面抗原", "乙肝病毒", "核心抗体", "恩替卡韦", "替诺福韦", "entecavir", "tenofovir"),
	concept("immune status",
		[]string{"免疫状况", "免疫功能", "免疫状态", "immune status", "immune function", "CD4"},
		"CD4", "CD8", "淋巴细胞", "lymphocyte*"),
	concept("viral load",
		[]string{"病毒载量", "病毒量", "病毒复制", "viral load"},
		"HIV RNA", "HIV-RNA", "HBV-DNA", "HBV DNA", "copies", "拷贝", "IU/mL", "IU/ml"),
	concept("tumour markers",
		[]string{"肿瘤标志物", "肿瘤标记物", "tumor markers", "tumour markers", "tumor marker", "tumour marker"},
		"癌胚抗原", "甲胎蛋白", "CEA", "AFP", "CA19-9", "CA199", "CA125", "CA15-3", "CA153", "PSA", "NSE", "CYFRA", "SCC"),
	concept("urinalysis",
		[]string{"尿常规", "小便常规", "urinalysis", "urine test", "urine dipstick"},
		"尿蛋白", "尿糖", "尿潜血", "隐血", "尿白细胞", "亚硝酸盐", "尿比重", "PRO", "protein*", "nitrite", "leukocyte esterase"),
	concept("proteinuria",
		[]string{"蛋白尿", "尿蛋白", "proteinuria", "urine protein"},
		"尿蛋白", "蛋白定量", "白蛋白/肌酐", "protein*", "albuminuria", "albumin-to-creatinine"),
	concept("allergy",
		[]string{"过敏", "过敏史", "变态反应", "allerg*", "hypersensitivity", "anaphyla*", "drug reaction*"},
		"过敏", "皮疹", "荨麻疹", "喉头水肿", "过敏性休克", "皮试阳性", "allerg*", "anaphyla*", "urticaria", "hives", "angioedema", "rash", "hypersensitivity"),
	concept("tissue diagnosis",
		[]string{"病理", "活检", "组织学", "组织诊断", "穿刺结果", "tissue diagnosis", "histology", "biopsy", "biopsies", "pathology"},
		"病理", "活检", "镜下", "免疫组化", "腺癌", "鳞癌", "鳞状细胞癌", "小细胞癌", "浸润性", "肉瘤", "淋巴瘤", "上皮内瘤变", "异型增生",
		"carcinoma", "adenocarcinoma", "lymphoma", "sarcoma", "malignan*", "dysplasia", "histolog*", "patholog*", "biops*", "immunohistochem*"),
	concept("precancerous change",
		[]string{"癌前病变", "precancerous", "premalignant"},
		"上皮内瘤变", "异型增生", "肠化", "肠上皮化生", "dysplasia", "metaplasia", "intraepithelial neoplasia"),
	concept("molecular testing",
		[]string{"基因", "分子", "突变", "靶点", "驱动基因", "染色体", "融合", "重排", "mutation*", "driver", "targetable", "molecular", "genetic*", "genomic*", "sequencing", "fusion*", "rearrangement*"},
		"基因", "突变", "融合", "重排", "断裂", "扩增", "缺失", "染色体", "核型", "FISH", "NGS", "EGFR", "ALK", "ROS1", "KRAS", "NRAS", "BRAF", "HER2", "PD-L1",
		"mutation*", "exon", "deletion", "fusion*", "rearrangement*", "amplification", "karyotyp*", "sequencing"),
	concept("staging",
		[]string{"分期", "staging", "stage"},
		"TNM", "pT", "pN", "cT", "cN", "转移", "淋巴结", "stage", "metasta*", "nodes", "nodal"),
	concept("metastasis",
		[]string{"转移", "mets", "metastases", "metastasis", "metastatic", "spread"},
		"转移", "占位", "metasta*", "deposit*"),
	concept("bone marrow",
		[]string{"骨穿", "骨髓", "bone marrow", "marrow"},
		"骨髓", "原始细胞", "增生", "巨核细胞", "blasts", "marrow", "cellularity", "megakaryocyte*"),
	concept("anticoagulant",
		[]string{"抗凝", "抗凝药", "anticoagula*", "blood thinner*"},
		"华法林", "利伐沙班", "阿哌沙班", "达比加群", "依度沙班", "肝素", "低分子肝素", "INR",
		"warfarin", "rivaroxaban", "apixaban", "dabigatran", "edoxaban", "heparin", "enoxaparin"),
	concept("chest X-ray",
		[]string{"胸片", "胸部X线", "chest film", "chest x-ray", "chest xray", "CXR", "chest radiograph"},
		"胸片", "X线", "DR", "radiograph*", "x-ray*", "PA and lateral"),
	concept("ECG",
		[]string{"心电图", "心电", "ECG", "EKG", "electrocardiogra*"},
		"心电图", "ST段", "T波", "QRS", "QT", "导联", "窦性", "ST-segment", "ST elevation", "ST depression", "T wave*", "QTc"),
	concept("lung function",
		[]string{"肺功能", "呼吸功能", "通气功能", "lung function", "pulmonary function", "PFT", "PFTs", "spirometry"},
		"FEV1", "FVC", "FEV1/FVC", "肺活量", "一秒率", "DLCO", "弥散", "spirometr*"),
	concept("vital signs",
		[]string{"生命体征", "体征", "vital signs", "vitals", "obs"},
		"体温", "心率", "血压", "呼吸频率", "脉搏", "血氧", "SpO2", "temperature", "pulse", "blood pressure", "respiratory rate", "saturation"),
	concept("tongue and pulse",
		[]string{"舌脉", "舌象", "脉象", "舌苔"},
		"舌质", "舌苔", "舌淡", "舌红", "舌暗", "舌胖", "齿痕", "苔白", "苔黄", "苔薄", "苔腻", "少苔",
		"脉弦", "脉细", "脉滑", "脉沉", "脉数", "脉浮", "脉缓", "脉涩", "脉弱"),
	concept("fetal status",
		[]string{"胎儿", "胎心", "宫内情况", "fetal", "fetus", "baby's heart"},
		"胎心", "胎儿", "胎动", "羊水", "胎盘", "双顶径", "孕囊", "胎心监护", "NST", "fetal", "FHR", "amniotic", "CTG"),
	concept("thrombosis",
		[]string{"血栓", "栓塞", "thrombus", "thrombosis", "clot", "embolism", "DVT", "PE"},
		"血栓", "栓塞", "充盈缺损", "thromb*", "embol*", "filling defect"),
	concept("obstruction",
		[]string{"梗阻", "堵", "obstruction", "obstructed", "blockage"},
		"梗阻", "积水", "扩张", "结石", "狭窄", "obstruct*", "hydronephrosis", "dilat*", "stone", "stricture"),
	concept("aspiration risk",
		[]string{"误吸", "吞咽", "aspiration", "swallow*", "dysphagia"},
		"呛咳", "吞咽", "洼田", "饮水试验", "误吸", "dysphagia", "swallow*", "cough* on drinking"),
	concept("haemolysis",
		[]string{"溶血", "hemolysis", "haemolysis", "hemolytic", "haemolytic"},
		"破碎红细胞", "乳酸脱氢酶", "LDH", "间接胆红素", "网织红细胞", "结合珠蛋白", "schistocyte*", "haptoglobin", "reticulocyte*", "lactate dehydrogenase"),
	concept("pancreatitis",
		[]string{"胰腺炎", "pancreatitis"},
		"淀粉酶", "脂肪酶", "胰腺", "amylase", "lipase", "pancrea*"),
	concept("imaging of the abdomen",
		[]string{"腹部影像", "腹部CT", "腹部B超", "scans of his abdomen", "abdominal imaging", "abdominal scan", "abdomen"},
		"腹部", "肝脏", "胆囊", "胰腺", "脾脏", "肾脏", "abdom*", "liver", "kidney*", "spleen", "pancrea*"),
	concept("cerebral imaging",
		[]string{"脑子", "头颅", "颅内", "脑转移", "brain", "head scan", "head CT", "intracranial"},
		"头颅", "颅内", "脑", "brain", "intracranial", "cerebral", "cerebell*"),
}

// namedConcepts returns the concepts q names (lower is asciiLower(q)),
// each with the words of its first naming.
func namedConcepts(q, lower string) []NamedConcept {
	var out []NamedConcept
	for i := range Concepts {
		if spans := Concepts[i].named(q, lower); len(spans) > 0 {
			out = append(out, NamedConcept{Concept: &Concepts[i], Words: q[spans[0][0]:prefixEnd(q, spans[0][1])]})
		}
	}
	return out
}
