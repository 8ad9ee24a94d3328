package clinical

import (
	"regexp"
	"strings"
)

// A reference range in brackets: "(3.5-5.3)", "（参考值<0.1）", "(N: 20-100
// ng/mL)", "(Normal: 7.35-7.45)". It states what is normal, not what the
// patient has, so it is no key and state B drops it. Unlabelled, a range
// counts only right after a value ("118g/L（130-175）"): "nodules (1-2 cm)"
// is a finding. A lone value in brackets is never a range: "(101.3°F)"
// and "(3.1 fmol/cell)" restate the patient's value, "（90%+）" is a result.
var refRangeRe = regexp.MustCompile(`(?i)\s?[（(]\s*(参考值|参考范围|正常值|正常范围|正常参考值|参考|ref(?:erence)?(?: range)?|normal(?: range)?|n)?\s*[:：]?\s*(?:[<>≤≥]\s*\d[\d.,]*|\d[\d.,]*\s*(?:[-~～–—]|至|to)\s*\d[\d.,]*)\s*[a-zμµ/%×^\d.·²³ ]*[）)]`)

// valueEnd matches the end of a value with its unit and flags, just
// before an unlabelled range: "21.6×10^9/L↑", "118g/L", "5.8 mmol/L".
var valueEnd = regexp.MustCompile(`\d[\d.]*\s*[A-Za-zμµ/%×^\d.·²³]*\s*[↑↓*]*\s*$`)

// refRanges returns the spans of the reference ranges of s.
func refRanges(s string) [][2]int {
	var out [][2]int
	for _, m := range refRangeRe.FindAllStringSubmatchIndex(s, -1) {
		labelled := m[2] >= 0
		if labelled || valueEnd.MatchString(s[max(0, m[0]-24):m[0]]) {
			out = append(out, [2]int{m[0], m[1]})
		}
	}
	return out
}

// dropRefRanges returns s without its reference ranges.
func dropRefRanges(s string) string {
	var b strings.Builder
	last := 0
	for _, r := range refRanges(s) {
		b.WriteString(s[last:r[0]])
		last = r[1]
	}
	b.WriteString(s[last:])
	return b.String()
}
