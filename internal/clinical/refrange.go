package clinical

import (
	"regexp"
	"slices"
	"strings"
)

// bracketedRangeRe matches a bracketed range or bound with at most a unit,
// "（3.5-9.5）", "(<0.05)", "（参考值<0.1）", "(N = 200–430 mg/dL)"; group 1 is
// its label, when there is one. labelledRangeRe matches a labelled range
// without brackets, "N: 10–20", to which refRanges adds the unit that
// follows ("pmol/L").
var (
	bracketedRangeRe = regexp.MustCompile(`(?i)\s?[（(]\s*(` + refLabel + `)?\s*[:：=]?\s*` + refBound + `\s*[a-zμµ/%×^\d.·²³]*\s*[）)]`)
	labelledRangeRe  = regexp.MustCompile(`(?i)\s?(?:\b(?:ref(?:erence)?(?: range)?|normal range|n)\b|参考值|参考范围|正常值|正常范围)\s*[:：=]\s*` + refBound)
)

// refLabel names a reference range; refBound is its range or bound:
// "3.5-5.3", "< 0.05", "13%–15%".
const (
	refLabel = `参考值|参考范围|正常值|正常范围|正常参考值|参考|ref(?:erence)?(?: range)?|normal(?: range)?|n`
	refBound = `(?:[<>≤≥]\s*\d[\d.,]*|\d[\d.,]*%?\s*(?:[-~～–—]|至|to)\s*\d[\d.,]*%?)`
)

// refRanges returns the spans of the reference ranges of s, ordered: the
// normal range a report prints beside a value. They state what is normal,
// not what the patient has, so they are no keys and state B cuts them. A
// labelled one counts wherever it is, in brackets ("(Normal: 7.35-7.45)")
// or not ("BUN 22 mg/dL N: 7–20 mg/dL", "pCO2 32 mm Hg N: 35–45 mm Hg",
// with its unit); an unlabelled one only in brackets right after a
// laboratory value and its flag ("118g/L（130-175）", "42.5ng/ml↑（<0.05）",
// "5.9 mmol/L H (3.5-5.1)"). The flag stays: it says the value is abnormal. So "3 nodules (1-2 cm)",
// "Ki-67 (20-30%)", "CA125（>600U/ml）" and "5 mg (2-3 times daily)" keep
// their brackets, which are findings, and "LVEF normal: 55-60%" its value.
//
// Every range holds a digit, a bracketed one an opening bracket and a
// labelled one a colon or an equals sign: a text without them is not
// scanned, since the expressions, which start with no literal, are
// costly (most of preparing a chunk before this test).
func refRanges(s string) [][2]int {
	if !strings.ContainsAny(s, "0123456789") {
		return nil
	}
	var out [][2]int
	if strings.ContainsAny(s, "(（") {
		for _, m := range bracketedRangeRe.FindAllStringSubmatchIndex(s, -1) {
			if m[2] >= 0 || afterLabValue(s[:m[0]]) {
				out = append(out, [2]int{m[0], m[1]})
			}
		}
	}
	if !strings.ContainsAny(s, ":：=") {
		return out
	}
	for _, m := range labelledRangeRe.FindAllStringIndex(s, -1) {
		end := m[1]
		if u := anyUnitAt(s, space(s, end)); u > 0 {
			end = u
		}
		if !overlaps(out, m[0], end) {
			out = append(out, [2]int{m[0], end})
		}
	}
	slices.SortFunc(out, func(a, b [2]int) int { return a[0] - b[0] })
	return out
}

// overlaps reports whether [start, end) meets one of spans.
func overlaps(spans [][2]int, start, end int) bool {
	for _, sp := range spans {
		if start < sp[1] && end > sp[0] {
			return true
		}
	}
	return false
}

// afterLabValue reports whether before ends with a number and a
// laboratory unit, then perhaps flags (↑↓*, H, L, HH, LL) and spaces.
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
		if flag := labFlag(before); flag > 0 {
			before = before[:len(before)-flag]
			continue
		}
		break
	}
	tail := before[max(0, len(before)-40):]
	values := findLabValues(tail)
	return len(values) > 0 && values[len(values)-1][1] == len(tail)
}

// labFlag returns the length of the letter flag that ends before, a
// separate word "H", "L", "HH" or "LL" (high, low), or 0.
func labFlag(before string) int {
	for _, f := range []string{" HH", " LL", " H", " L"} {
		if strings.HasSuffix(before, f) {
			return len(f) - 1
		}
	}
	return 0
}
