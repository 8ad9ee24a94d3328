package clinical

import (
	"strings"
)

// Question is a clinical question read for retrieval: what it is about
// (Topic) and whether it asks about the record as a whole (Generic).
type Question struct {
	// Topic is the question with its scaffolding blanked out: the words
	// that say how it asks ("该病人的…结果如何", "what was his …",
	// "please summarise") rather than what about. Relevance is measured
	// on the topic's terms alone, so that "结果" or "patient" finds no
	// evidence by itself, and no Chinese bigram spans a question word
	// and a topic word ("的血" of "病人的血常规").
	Topic string
	// Generic is true when the question asks about the case as a whole:
	// its diagnosis and the basis for it, a summary, the findings, the
	// plan ("简述该病人的诊断及诊断依据", "summarise the findings").
	Generic bool
	// Asks lists the words that made it generic, as written.
	Asks []string
	// Concepts are the concepts the question names (Concepts table),
	// with the words that named them; those words are blanked out of
	// Topic, since a text answers a concept by any of its names or
	// members.
	Concepts []NamedConcept
}

// NamedConcept is a concept a question names, and the words it used.
type NamedConcept struct {
	*Concept
	Words string
}

// ReadQuestion splits q into its topic and scaffolding (see Question).
// Matching follows the text rules' conventions (TextRule): Latin words
// whole, or as prefixes where a term ends in "*"; Chinese anywhere.
//
// A question about one patient's record (record) is read for what it asks
// of the record: a generic question's words ("诊断依据", "summarise the
// findings") name no report to look for, so they are blanked out of the
// topic too. Across the store they are what the question is about ("is
// irritable bowel syndrome a diagnosis of exclusion?") and stay.
func ReadQuestion(q string, record bool) Question {
	lower := asciiLower(q)
	blank := make([]bool, len(q))
	var out Question
	mark := func(start, end int) {
		for i := start; i < prefixEnd(q, end); i++ {
			blank[i] = true
		}
	}
	genericTerms.each(q, lower, func(start, end int) bool {
		out.Generic = true
		out.Asks = append(out.Asks, q[start:end])
		if record {
			mark(start, end)
		}
		return false
	})
	scaffoldTerms.each(q, lower, func(start, end int) bool {
		mark(start, end)
		return false
	})
	out.Concepts = namedConcepts(q, lower)
	for _, c := range out.Concepts {
		for _, sp := range c.named(q, lower) {
			mark(sp[0], sp[1])
		}
	}
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		if blank[i] {
			if i == 0 || !blank[i-1] {
				b.WriteByte(' ')
			}
			continue
		}
		b.WriteByte(q[i])
	}
	out.Topic = strings.TrimSpace(b.String())
	return out
}

// genericTerms ask about the whole case: its diagnosis and the basis for
// it, a summary or overview, the findings, the assessment and plan. They
// are scaffolding too: "诊断依据" names no report to look for.
var genericTerms = compileTerms([]string{
	"诊断", "依据", "鉴别", "病情", "病史特点", "病例特点", "特点", "总结", "概括", "归纳", "简述",
	"概述", "小结", "分析", "评估", "处理", "治疗方案", "治疗原则", "诊疗", "下一步", "预后",
	"主要问题", "哪些问题", "整体", "全面", "病例摘要",
	"summar*", "overview", "finding", "findings", "diagnos*", "differential", "assessment",
	"assess", "impression", "plan", "management", "manage", "workup", "work-up", "prognosis",
	"problem", "problems", "what is going on", "what's going on", "the case", "this case",
	"key evidence", "main issues", "handover", "hand over", "take over", "watch out", "watch for",
	"concerns", "issues", "risks", "status", "overall", "so far",
})

// scaffoldTerms say how a question asks, or whom about, not what: the
// patient, question words, "result", "level", politeness. English stop
// words ("what", "was", "his") are already dropped by the BM25 analyzer.
// Single Chinese characters (的, 他) are not listed: blanked out they
// would split words such as 目的 or 其他.
var scaffoldTerms = compileTerms([]string{
	"该病人", "该患者", "这位患者", "这个病人", "这位病人", "此患者", "本患者", "患者", "病人",
	"请问", "请", "帮我", "一下", "如何", "怎么样", "怎样", "怎么", "什么", "哪些", "哪个", "哪里",
	"是否", "有没有", "有无", "多少", "结果", "情况", "目前", "现在", "最近", "当时", "做过", "做了",
	"看到", "显示", "提示", "发现", "检查结果", "报告", "有何", "为何", "是什么", "高不高", "大不大",
	"重不重", "严重吗", "有多重", "多重", "多大", "能不能", "能否", "可不可以", "要不要", "需不需要",
	"以前", "之前", "平时", "一直", "当时", "查了吗", "出来了吗", "查到", "怎么评估", "正常吗",
	"patient", "patient's", "result", "results", "level", "levels", "value", "values", "show",
	"shows", "showed", "tell", "please", "latest", "recent", "recently", "current", "currently",
	"today", "reveal*", "find", "found", "report", "reports", "reported", "need", "needs", "know",
	"want", "write", "come", "came", "get", "got", "happen*", "going", "take", "took", "give", "make",
	"think", "look", "looks", "like", "let", "worry", "worried", "anything", "something", "things",
	"thing", "kind", "sort", "much", "many", "any", "ever", "still", "now",
})

// prefixEnd extends a match of a prefix term ("summar*", "allerg*") that
// ends at end inside a Latin word to the word's end.
func prefixEnd(s string, end int) int {
	for end > 0 && end < len(s) && isWordByte(s[end]) && isWordByte(s[end-1]) {
		end++
	}
	return end
}
