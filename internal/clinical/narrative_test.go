package clinical

import (
	"testing"

	"github.com/medkb/medkb/internal/base"
)

func TestNarrative(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		// Chief complaints: short, ending in a duration.
		{"发热、咳嗽、咳痰3天。", true},
		{"反复咳嗽、咳痰10余年，活动后气促3年，加重1周。", true},
		{"停经38+2周，阴道流液2小时。", true},
		{"发现血肌酐升高5年，乏力、纳差伴恶心1月。", true},
		{"Fever and productive cough for 4 days.", true},
		{"胸骨后压榨样疼痛2小时，伴大汗、恶心。", true},
		{"体检发现肺部结节2周，无咳嗽咳痰。", true},
		// Histories: cues of two kinds.
		{"患者3天前受凉后出现发热，于当地医院查血常规示白细胞12.3×10^9/L，遂来我院。", true},                                       // when, course, care
		{"高血压病史10年，血压最高180/110mmHg，平素口服氨氯地平，血压控制不详。", true},                                         // history, treatment
		{"2年前行胃镜检查示慢性胃炎，予抑酸治疗后好转。", true},                                                           // when, treatment
		{"高血压病史12年，血压最高190/110mmHg，现服硝苯地平，血压控制在150/90mmHg左右。", true},                                // history, treatment
		{"1型糖尿病6年，长期甘精胰岛素16U睡前皮下注射，曾因糖尿病酮症住院1次。", true},                                             // history, treatment, care
		{"She was seen at urgent care 2 days ago, where a chest x-ray showed an infiltrate.", true}, // care, when
		// Reports, tests and examinations: at most one kind.
		{"胸部CT：右肺下叶实变，与我院2024-01-05片比较，较前吸收。", false},
		{"入院后查血常规：WBC 12.3×10^9/L，CRP 86mg/L。", false},
		{"T 36.5℃，P 80次/分，神志清楚，双肺呼吸音清，心律齐，腹软，双下肢无水肿。", false},
		{"（胃窦）黏膜慢性炎，HP（+）。", false},
		{"窦性心律，心率72次/分，Ⅱ、Ⅲ、aVF导联ST段压低0.1mV。", false},
		{"Hemoglobin 7.4 g/dL, MCV 82 fL, platelets 310.", false},
		{"动态血压监测24小时，平均血压135/85mmHg，夜间血压下降率5%。", false}, // a number besides the duration
		{"停经38+2周，阴道流液2小时。", true},
		{benchReport, false}, // drawn in the emergency department, received in the laboratory
		{"Clinical history: cough for 3 days, seen in clinic 2 days ago. Findings: right lower lobe consolidation.", false},
		{"临床病史：3天前出现咳嗽。检查所见：右肺下叶斑片影。", false},
		{"", false},
	} {
		if got := narrative(tt.text); got != tt.want {
			t.Errorf("narrative(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestNarrativeRetellsTests: a test, an examination or a tissue result
// retold in a history does not tier it; an allergy does, wherever written.
func TestNarrativeRetellsTests(t *testing.T) {
	for _, tt := range []struct {
		text string
		want base.Tier
		why  string
	}{
		{"患者3天前受凉后出现发热，体温最高39.2℃，于当地医院查胸部CT示右下肺斑片影，予头孢类抗感染治疗，遂来我院。", base.T4, "text rule: narrative"},
		{"患者1年前行肺穿刺活检，病理提示肺腺癌，基因检测示EGFR 19外显子缺失突变，予奥希替尼治疗。", base.T4, "text rule: narrative"},
		{"高血压病史8年，最高血压160/100mmHg，口服硝苯地平控释片30mg qd。", base.T4, "text rule: narrative"},
		{"2019年行冠脉CTA时出现碘造影剂过敏，表现为全身荨麻疹，予抗过敏治疗后好转。", base.T1, "text rule: allergy"},
		{"He was seen at an outside hospital 2 days ago, where a chest x-ray showed a right lower lobe infiltrate.", base.T4, "text rule: narrative"},
		// Not narratives: the test decides.
		{"胸部CT：右肺下叶实变，与我院2024-01-05片比较，较前吸收。", base.T2, "text rule: imaging"},
		{"血压150/92mmHg，心率98次/分。", base.T3, "text rule: vital signs"},
	} {
		got, why := Classify("", base.TierNone, tt.text)
		if got != tt.want || why.String() != tt.why {
			t.Errorf("Classify(%q) = %v, %q; want %v, %q", tt.text, got, why, tt.want, tt.why)
		}
	}
}
