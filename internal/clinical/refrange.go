package clinical

import "regexp"

// A reference range in brackets after a value: "(3.5-5.3)", "（参考值<0.1）",
// "(N: 20-100 ng/mL)", "(Normal: 7.35-7.45)". It states what is normal,
// not what the patient has, so it is no key and state B drops it. A lone
// value in brackets is not a range: "(101.3°F)" and "(3.1 fmol/cell)"
// restate the patient's value in another unit, and "（90%+）" is a result.
var refRangeRe = regexp.MustCompile(`(?i)\s?[（(]\s*(?:参考值|参考范围|正常值|正常范围|正常参考值|参考|ref(?:erence)?(?: range)?|normal(?: range)?|n)?\s*[:：]?\s*(?:[<>≤≥]\s*\d[\d.,]*|\d[\d.,]*\s*(?:[-~～–—]|至|to)\s*\d[\d.,]*)\s*[a-zμµ/%×^\d.·²³ ]*[）)]`)

// refRanges returns the spans of the reference ranges of s.
func refRanges(s string) [][2]int {
	var out [][2]int
	for _, m := range refRangeRe.FindAllStringIndex(s, -1) {
		out = append(out, [2]int{m[0], m[1]})
	}
	return out
}

// dropRefRanges returns s without its reference ranges.
func dropRefRanges(s string) string { return refRangeRe.ReplaceAllString(s, "") }
