package reliability

import "strings"

// Design is a study design, ordered by the trust it earns: a larger value
// is more reliable. Unknown is the zero value.
type Design int

// The designs, least reliable first (see the package documentation).
const (
	Unknown Design = iota
	ExpertOpinion
	CaseReport
	CaseSeries
	CaseControl
	Cohort
	ClinicalTrial // a trial that is not randomised
	RCT
	Synthesis // systematic review, meta-analysis, guideline
)

// levels is the number of known designs: the width of a band is 1/levels.
const levels = int(Synthesis)

// designNames are the designs' names in results and docs.
var designNames = [...]string{"unknown", "expert opinion", "case report", "case series",
	"case-control", "cohort", "clinical trial", "rct", "systematic review"}

// String is the design's name.
func (d Design) String() string {
	if d >= 0 && int(d) < len(designNames) {
		return designNames[d]
	}
	return "unknown"
}

// aliases maps a normalised Evidence or Type value (see normalise) to its
// design. It splits what clinical.TypeTable lumps into one tier: cohort
// and case-control (both T3 there), case series and case report, an RCT
// and a trial that is not randomised.
var aliases = map[string]Design{
	"systematic review": Synthesis, "meta analysis": Synthesis, "metaanalysis": Synthesis,
	"meta analyses": Synthesis, "guideline": Synthesis, "guidelines": Synthesis,
	"clinical practice guideline": Synthesis, "practice guideline": Synthesis,
	"荟萃分析": Synthesis, "meta分析": Synthesis, "系统评价": Synthesis, "系统综述": Synthesis,
	"指南": Synthesis, "临床指南": Synthesis, "诊疗指南": Synthesis,

	"rct": RCT, "randomized controlled trial": RCT, "randomised controlled trial": RCT,
	"randomized trial": RCT, "randomised trial": RCT, "随机对照试验": RCT,

	"clinical trial": ClinicalTrial, "trial": ClinicalTrial, "controlled clinical trial": ClinicalTrial,
	"non randomized trial": ClinicalTrial, "non randomised trial": ClinicalTrial,
	"nonrandomized trial": ClinicalTrial, "single arm trial": ClinicalTrial, "临床试验": ClinicalTrial,
	"非随机对照试验": ClinicalTrial,

	"cohort": Cohort, "cohort study": Cohort, "prospective cohort": Cohort,
	"retrospective cohort": Cohort, "observational": Cohort, "observational study": Cohort, "队列研究": Cohort,

	"case control": CaseControl, "case control study": CaseControl, "病例对照": CaseControl,
	"病例对照研究": CaseControl,

	"case series": CaseSeries, "病例系列": CaseSeries,
	"case report": CaseReport, "case reports": CaseReport, "病例报告": CaseReport, "个案报告": CaseReport,

	"expert opinion": ExpertOpinion, "opinion": ExpertOpinion, "consensus": ExpertOpinion,
	"expert consensus": ExpertOpinion, "editorial": ExpertOpinion, "narrative review": ExpertOpinion,
	"commentary": ExpertOpinion, "专家意见": ExpertOpinion, "专家共识": ExpertOpinion,
}

// ParseDesign reads an Evidence or Type value: case, hyphens, underscores
// and runs of spaces do not matter ("Case-Control" is "case control").
// A value that names no design is Unknown.
func ParseDesign(s string) Design {
	return aliases[normalise(s)]
}

// normalise lower-cases s, turns hyphens and underscores into spaces and
// collapses runs of spaces.
func normalise(s string) string {
	s = strings.NewReplacer("-", " ", "_", " ").Replace(strings.ToLower(s))
	return strings.Join(strings.Fields(s), " ")
}

// Cues are the phrases that type a document with neither Evidence nor
// Type, matched in its lower-cased title and text. They are kept
// conservative: each describes the study itself ("patients were
// randomized", "this meta-analysis"), not studies it cites ("a previous
// meta-analysis", "randomized trials have shown"), and when cues of
// several designs appear the lowest design wins, so that a cue never
// raises a document above what its text also says it is. Bare design
// names are cues only for the low designs ("case series",
// "case-control"), where a cited mention can only lower a score.
var Cues = []struct {
	Design  Design
	Phrases []string
}{
	{ExpertOpinion, []string{"this editorial", "this commentary", "this viewpoint"}},
	{CaseReport, []string{"this case report", "a case report", "we report a case", "we present a case", "we describe a case", "we report a patient", "we present a patient"}},
	{CaseSeries, []string{"case series"}},
	{CaseControl, []string{"case-control", "case control study"}},
	{Cohort, []string{"cohort study", "retrospective cohort", "prospective cohort", "population-based cohort", "longitudinal cohort"}},
	{ClinicalTrial, []string{"non-randomized", "nonrandomized", "non-randomised", "nonrandomised", "single-arm", "single arm trial", "open-label trial", "phase ii trial", "phase 2 trial"}},
	{RCT, []string{"randomly assigned", "randomly allocated", "were randomized", "were randomised", "a randomized controlled trial", "a randomised controlled trial", "randomized, double-blind", "randomised, double-blind", "randomized, placebo-controlled", "randomised, placebo-controlled"}},
	{Synthesis, []string{"this meta-analysis", "a meta-analysis of", "meta-analysis was performed", "we performed a meta-analysis", "we conducted a meta-analysis",
		"this systematic review", "a systematic review of", "we performed a systematic review", "we conducted a systematic review"}},
}

// cueDesign is the design the text cues give text: the lowest design one
// of whose phrases it holds, or Unknown.
func cueDesign(text string) Design {
	lower := strings.ToLower(text)
	for _, c := range Cues { // lowest design first
		for _, p := range c.Phrases {
			if strings.Contains(lower, p) {
				return c.Design
			}
		}
	}
	return Unknown
}
