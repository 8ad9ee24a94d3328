package clinical

import (
	"regexp"
	"slices"
	"strings"
)

// Units, as regular expressions, longest first within each group so that
// "mg/dL" wins over "mg". Lab units signal a laboratory value on their own
// (the "lab value" text rule); the others need context.
const (
	num      = `\d+(?:[.,]\d+)*`
	labUnits = `[×xX*]\s?10(?:\^?\d+|[⁰¹²³⁴⁵⁶⁷⁸⁹]+)\s?/\s?L|` +
		`mL/min(?:/1\.73\s?m(?:2|²))?|mmol/L|[µμu]mol/L|nmol/L|pmol/L|mEq/L|mOsm/kg|mIU/mL|mIU/L|` +
		`[µμu]IU/mL|IU/mL|IU/L|U/mL|U/L|mg/dL|mg/mL|mg/L|mg/24\s?h|g/dL|g/L|g/24\s?h|ng/mL|ng/dL|ng/L|` +
		`pg/mL|[µμu]g/mL|[µμu]g/dL|[µμu]g/L|mm/h(?:r)?\b|cells/[µμu]L|cells/mm3|copies/mL|/mm3|` +
		`/mm\^3|/[µμu]L|/HPF|/hpf|/LPF|%`
	vitalUnits = `mm\s?Hg|cm\s?H2O|℃|°C|°F|/min\b|bpm\b|beats/min|breaths/min|次/分|次/min`
	otherUnits = `kg/m2|kg/m²|mg/kg|mg\b|mcg\b|[µμ]g\b|kg\b|g\b|mL\b|ml\b|L\b|mm\b|cm\b|dB\b|mV\b|ms\b`
	lengthUnit = `(?:mm|cm)\b`
	rangeSep   = `(?:-|–|—|~|～|至|to)`
	dimSep     = `[×xX*]`
)

// labValuePattern is a number followed by a laboratory unit.
const labValuePattern = num + `\s?(?:` + labUnits + `)`

// valuePattern matches, in order of preference at one position: a blood
// pressure, a dimension (8 mm × 6 mm, 3.2×2.1×1.5 cm), a range (4～5cm,
// 200–430 mg/dL) and a single value with its unit. An optional comparator
// (<, >, ≤, ≥) stays with the value.
var valuePattern = regexp.MustCompile(func() string {
	unit := `(?:` + labUnits + `|` + vitalUnits + `|` + otherUnits + `)`
	value := `(?:[<>≤≥]=?\s?)?` + num
	bp := `\d{2,3}\s?/\s?\d{2,3}\s?(?:mm\s?Hg)`
	dim := num + `\s?(?:` + lengthUnit + `\s?)?` + dimSep + `\s?` + num + `\s?(?:` + lengthUnit + `\s?)?` +
		`(?:` + dimSep + `\s?` + num + `\s?)?` + lengthUnit
	rng := num + `\s?(?:` + unit + `\s?)?` + rangeSep + `\s?` + num + `\s?` + unit
	return bp + `|` + dim + `|` + rng + `|` + value + `\s?` + unit
}())

// Finding and allergy patterns. Patterns ending in an "object" take the
// words that follow (see withObject).
var (
	findingWithObject = regexp.MustCompile(`(?i)\b(?:positive for|negative for|no evidence of)\b`)
	allergyWithObject = regexp.MustCompile(`(?i)\b(?:allergic (?:reaction )?to|allerg(?:y|ies) to|anaphylaxis to)\b`)
	findingPatterns   = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(?:[A-Za-z0-9][\w-]* ){1,2}(?:is|was|are|were) (?:\w+ )?(?:positive|negative)\b`),
		regexp.MustCompile(`(?i)\b[A-Za-z0-9][\w-]*:?[ -](?:positive|negative)\b`),
		regexp.MustCompile(`(?:[A-Za-z0-9][\w\-./]*\s?|\p{Han}{1,8})?[(（]\s?[+\-−±]{1,4}\s?[)）]`),
		regexp.MustCompile(`(?:[A-Za-z0-9][\w\-]*\s?)?\p{Han}{0,8}(?:阳性|阴性)`),
		regexp.MustCompile(`未见[^，。；,;.\s]{0,12}`),
		regexp.MustCompile(`(?i)\bno known (?:drug )?allergies\b|\bNKDA\b|\banaphyla\w*`),
		regexp.MustCompile(`对[^，。；,;、]{1,12}?过敏|\p{Han}{1,8}?过敏史?`),
	}
)

// objectStops end the object of "positive for", "allergic to" and the like.
var objectStops = regexp.MustCompile(`(?i)^(?:and|or|but|with|which|who|that|in|on|at|as|since|after|for|from|while|was|is|were|are)$`)

const maxObjectWords = 3

// Keys returns the key entities of s in order of appearance, without
// repeats: values with units (2.3 ng/mL, WBC 12.5×10^9/L gives
// "12.5×10^9/L"), dimensions and ranges (8 mm × 6 mm, 4～5cm), blood
// pressures (125/85 mm Hg), positive and negative findings (positive for
// X, X is negative, (+), 阳性, 阴性, no evidence of X, 未见X) and allergy
// statements (allergic to X, 青霉素过敏, 对X过敏). Every key is a substring of
// s as written, so survival in a packed context is strings.Contains.
func Keys(s string) []string {
	return distinctKeys(s, keySpans(s))
}

// distinctKeys returns the texts of spans, first occurrences only.
func distinctKeys(s string, spans [][2]int) []string {
	if len(spans) == 0 {
		return nil
	}
	keys := make([]string, 0, len(spans))
	seen := make(map[string]bool, len(spans))
	for _, sp := range spans {
		if k := s[sp[0]:sp[1]]; !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

// keySpans returns the byte spans of the key entities of s, ordered and
// non-overlapping: where two overlap, the earlier wins, and at the same
// start the longer.
func keySpans(s string) [][2]int {
	var spans [][2]int
	add := func(start, end int) {
		k := trimLeadingStops(strings.TrimSpace(s[start:end]))
		if k != "" {
			start += strings.Index(s[start:end], k)
			spans = append(spans, [2]int{start, start + len(k)})
		}
	}
	for _, m := range valuePattern.FindAllStringIndex(s, -1) {
		add(m[0], m[1])
	}
	for _, re := range findingPatterns {
		for _, m := range re.FindAllStringIndex(s, -1) {
			start, end := m[0], m[1]
			switch {
			case strings.HasPrefix(s[end:], "性"): // 过敏性鼻炎 is a disease, not an allergy
				continue
			case strings.HasPrefix(s[end:], " for "): // "is positive for X"
				end = withObject(s, end+len(" for"))
			case strings.Contains(s[start:end], "抗过敏"): // anti-allergy treatment
				continue
			case strings.HasSuffix(s[start:end], "过敏") || strings.HasSuffix(s[start:end], "过敏史"):
				if i := strings.Index(s[start:end], "对"); i > 0 { // "曾对X过敏" is "对X过敏"
					start += i
				}
			}
			add(start, end)
		}
	}
	for _, re := range []*regexp.Regexp{findingWithObject, allergyWithObject} {
		for _, m := range re.FindAllStringIndex(s, -1) {
			add(m[0], withObject(s, m[1]))
		}
	}
	slices.SortFunc(spans, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return b[1] - a[1]
	})
	kept := spans[:0]
	for _, sp := range spans {
		if len(kept) == 0 || sp[0] >= kept[len(kept)-1][1] {
			kept = append(kept, sp)
		}
	}
	return kept
}

// trimLeadingStops drops function words a pattern took as a subject:
// "and negative" is "negative".
func trimLeadingStops(k string) string {
	for {
		i := strings.IndexAny(k, " -")
		if i < 0 || !objectStops.MatchString(k[:i]) {
			return k
		}
		k = k[i+1:]
	}
}

// withObject returns the end of the object that follows s[:end]: up to
// maxObjectWords words, stopping at punctuation or a stop word.
func withObject(s string, end int) int {
	i := end
	for range maxObjectWords {
		rest := s[i:]
		trimmed := strings.TrimLeft(rest, " ")
		if len(trimmed) == len(rest) && i != end || trimmed == "" {
			break
		}
		n := strings.IndexFunc(trimmed, func(r rune) bool {
			return r == ' ' || r == '\n' || r == '\t' || strings.ContainsRune(",;.:!?()，。；：（）、", r) || r >= 0x2E80
		})
		if n < 0 {
			n = len(trimmed)
		}
		word := trimmed[:n]
		if word == "" || objectStops.MatchString(word) {
			break
		}
		i += len(rest) - len(trimmed) + n
	}
	return i
}
