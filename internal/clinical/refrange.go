package clinical

import "regexp"

// refRangeRe matches a bracketed range or bound with at most a unit,
// "（3.5-9.5）", "(<0.05)", "（参考值<0.1）", "(N = 200–430 mg/dL)", or a
// labelled one without brackets, "N: 10–20 pmol/L". Group 1 or 2 is the
// label, when there is one.
var refRangeRe = regexp.MustCompile(`(?i)\s?[（(]\s*(` + refLabel + `)?\s*[:：=]?\s*` + refBound + `\s*[）)]` +
	`|\s?(\b(?:ref(?:erence)?(?: range)?|normal(?: range)?|n)\b|参考值|参考范围|正常值|正常范围)\s*[:：=]\s*` + refBound)

// refLabel names a reference range; refBound is its range or bound, with
// at most a unit: "3.5-5.3", "< 0.05 ng/mL", "10–20 pmol/L".
const (
	refLabel = `参考值|参考范围|正常值|正常范围|正常参考值|参考|ref(?:erence)?(?: range)?|normal(?: range)?|n`
	refBound = `(?:[<>≤≥]\s*\d[\d.,]*|\d[\d.,]*%?\s*(?:[-~～–—]|至|to)\s*\d[\d.,]*)\s*[a-zμµ/%×^\d.·²³]*`
)

// refRanges returns the spans of the reference ranges of s: the normal
// range a report prints beside a value. They state what is normal, not
// what the patient has, so they are no keys and state B cuts them. A
// labelled one ("(Normal: 7.35-7.45)") counts wherever it is; an
// unlabelled one only right after a laboratory value and its flag
// ("118g/L（130-175）", "42.5ng/ml↑（<0.05）"). So "3 nodules (1-2 cm)",
// "Ki-67 (20-30%)", "CA125（>600U/ml）" and "5 mg (2-3 times daily)" keep
// their brackets, which are findings.
func refRanges(s string) [][2]int {
	var out [][2]int
	for _, m := range refRangeRe.FindAllStringSubmatchIndex(s, -1) {
		if m[2] >= 0 || m[4] >= 0 || afterLabValue(s[:m[0]]) {
			out = append(out, [2]int{m[0], m[1]})
		}
	}
	return out
}

// afterLabValue reports whether before ends with a number and a
// laboratory unit, then perhaps flags (↑↓*) and spaces.
func afterLabValue(before string) bool {
	for len(before) > 0 {
		switch {
		case before[len(before)-1] == ' ' || before[len(before)-1] == '*':
			before = before[:len(before)-1]
			continue
		case len(before) >= 3 && (before[len(before)-3:] == "↑" || before[len(before)-3:] == "↓"):
			before = before[:len(before)-3]
			continue
		}
		break
	}
	tail := before[max(0, len(before)-40):]
	values := findLabValues(tail)
	return len(values) > 0 && values[len(values)-1][1] == len(tail)
}
