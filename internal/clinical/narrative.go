package clinical

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/medkb/medkb/internal/text"
)

// A history narrative (现病史, 既往史, a chief complaint, "History of
// present illness") tells what happened to the patient, and on the way
// retells earlier tests and findings: "1天前至当地医院查血常规示白细胞
// 15.3×10^9/L，胸部CT示右下肺实变，遂来我院", "血压最高180/110mmHg，口服氨氯地平".
// The test it quotes is evidence where it was reported (the lab or CT
// report, the examination), not in the retelling, so the rules of tests and
// examinations do not fire on a narrative (TextRule.SkipInNarrative) and
// the narrative rule makes it T4. A documented allergy stays T1 wherever it
// is written: the allergy rule does not skip narratives.
//
// A text reads as a narrative when it has the shape of a chief complaint
// (short, its first or last clause ending in a duration, no other number:
// "反复咳嗽、咳痰10余年，加重1周。", "体检发现肺结节2周，无不适。", "Fever
// and productive cough for 4 days."), or when it holds cues of at
// least two of the kinds of NarrativeCues: when (3天前, 半年前, 2 days
// ago), how the illness went (出现, 无明显诱因, 反复, developed), care
// sought (就诊, 于当地医院, 遂来我院, 收入院, presented to the emergency
// department), treatment (予, 口服, 治疗, was started on) and history
// (病史, 既往, 长期, 曾, 否认, history of, denies). One kind alone is not
// enough: a CT report compared with "我院" films or a lab panel drawn 入院后
// tells no story. Reports, tests and examinations rarely hold two, and a
// text with a report's headings (Findings:, 检查所见：) is never a narrative.
//
// NarrativeCue is one kind of cue: its terms, matched like a TextRule's.
type NarrativeCue struct {
	Kind  string
	Terms []string
	terms terms
}

func cue(kind string, list ...string) NarrativeCue {
	return NarrativeCue{Kind: kind, Terms: list, terms: compileTerms(list)}
}

// Durations: a number (Arabic or Chinese) and a unit of time.
const (
	zhDuration = `(?:\d+(?:[.+]\d+)?|[一二两三四五六七八九十百半数几]+)\s*[余多+]?\s*个?\s*(?:分钟|小时|天|日|周|星期|月|年)[余多]?`
	enDuration = `(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|several|few|couple of)[- ](?:minutes?|hours?|days?|weeks?|months?|years?)`
)

// NarrativeCues are the kinds of cue a narrative holds (see NarrativeCue);
// a text with cues of two kinds reads as one. Read-only.
var NarrativeCues = []NarrativeCue{
	cue("when",
		`re(前|来):`+zhDuration+`\s*(?:前|来|以来)`, "今晨", "昨日", "昨天", "昨晚", "此后", "次日", "入院前",
		`re(ago):\b`+enDuration+`\s+ago\b`, `re(for|over):\b(?:for|over) (?:the (?:past|last) )?`+enDuration+`\b`, "yesterday", "last night", "last week", "last month", "last year",
		"this morning", "earlier today"),
	cue("course",
		"出现", "起病", "发病", "无明显诱因", "诱因", "突发", "突然", "逐渐", "渐进", "反复", "病程中",
		"未予重视", "未重视", "未予诊治", "未诊治",
		"developed", "began", "noticed", "onset", "worsen*", "progressive*", "gradual*", "sudden*"),
	cue("care",
		"就诊", "就医", "诊所", "当地", "外院", "来我院", "至我院", "到我院", "于我院", "转来", "转入", "收入",
		"收住", "入院", "住院", "急诊", "门诊", "送至", "送来", "遂来",
		"presented", "presents", "was seen", "admitted", "referred", "brought", "emergency department", "ED",
		"urgent care", "outside hospital", "primary care", "EMS"),
	cue("treatment",
		"予", "治疗", "服", "静滴", "输液", "注射", "控制",
		"started on", "treated with", "was given", "prescribed", "underwent"),
	cue("history",
		"史", "既往", "平素", "平时", "长期", "曾", "否认", "确诊", "诊断为",
		"history of", "diagnosed", "denies", "denied", "previously"),
}

// complaintShape is a chief complaint: at most complaintRunes runes
// whose first or last clause ends in a duration ("胸痛2小时，伴大汗。",
// "反复咳嗽10余年，加重1周。", "Fever for 4 days."), with no number but
// its durations and ages (so not "动态血压监测24小时，平均血压135/85mmHg").
var (
	complaintShape = regexp.MustCompile(`(?i)^[^，。；,;]{1,40}?` + zhDuration + `\s*[，；,;]|(?:` + zhDuration + `|\bfor (?:the (?:past|last) )?` + enDuration + `)\s*[。.]?\s*$`)
	durationOrAge  = regexp.MustCompile(`(?i)` + zhDuration + `|\b` + enDuration + `|\d+\s*(?:岁|-year-old|years? old)`)
)

const complaintRunes = 60

// IsComplaint reports whether s has a chief complaint's shape: a short
// symptom with its duration ("胸痛3小时。", "Fever for 4 days."), which no
// text rule needs to name.
func IsComplaint(s string) bool { return isComplaint(text.Simplified(s)) }

// isComplaint reports whether s has a chief complaint's shape.
func isComplaint(s string) bool {
	if utf8.RuneCountInString(s) > complaintRunes || !complaintShape.MatchString(s) {
		return false
	}
	rest := durationOrAge.ReplaceAllString(s, "")
	return !strings.ContainsAny(rest, "0123456789")
}

// reportHeading is a heading of a report's structure ("Findings:",
// "Specimen:", "检查所见：", "超声提示："): a text that has one is a
// report, whatever its clinical-history line or its specimen's journey
// ("drawn in the emergency department", "临床病史：咳嗽3天") tells.
var reportHeading = regexp.MustCompile(`(?i)\b(?:findings|impression|conclusions?|interpretation|specimen|technique|comparison)\s*[:：]|(?:所见|结论|诊断意见|检查提示|超声提示|印象)\s*[:：]`)

// narrative reports whether s reads as a history narrative (see
// NarrativeCue).
func narrative(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || hasColon(s) && reportHeading.MatchString(s) { // every heading ends in a colon
		return false
	}
	if isComplaint(s) {
		return true
	}
	lower := asciiLower(s)
	kinds := 0
	for i := range NarrativeCues {
		if NarrativeCues[i].terms.each(s, lower, func(int, int) bool { return true }) {
			if kinds++; kinds == 2 {
				return true
			}
		}
	}
	return false
}

// findNarrative is the narrative rule's matcher: all of s, when it is a
// narrative.
func findNarrative(s string) [][2]int {
	if narrative(s) {
		return [][2]int{{0, len(s)}}
	}
	return nil
}

const narrativeSummary = "a history narrative: a chief complaint (short, its first or last clause ending in a duration, no other number), or cues of two kinds among when (3天前, 2 days ago), " +
	"course (出现, 无明显诱因, developed), care sought (就诊, 遂来我院, presented), treatment (予, 口服, was started on) and history (病史, 既往, 否认, history of)"
