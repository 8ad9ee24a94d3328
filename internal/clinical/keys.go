package clinical

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
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

// valueAt is valuePattern anchored, for findValues.
var valueAt = regexp.MustCompile(`^(?:` + valuePattern.String() + `)`)

// valueWindow is how far past its start findValues looks for a value; no
// value is nearly this long.
const valueWindow = 128

// findValues returns what valuePattern.FindAllStringIndex would, faster: it
// tries the anchored pattern only where a value can start (a digit or a
// comparator), on a short window, which lets Go use its backtracker instead
// of scanning the whole text with the slower NFA.
func findValues(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == '<' || c == '>' || strings.HasPrefix(s[i:], "≤") || strings.HasPrefix(s[i:], "≥")) {
			i++
			continue
		}
		window := s[i:min(len(s), i+valueWindow)]
		m := valueAt.FindStringIndex(window)
		if m != nil && m[1] == len(window) && len(window) < len(s)-i {
			m = valueAt.FindStringIndex(s[i:]) // touches the window's end: look again in full
		}
		if m == nil || m[1] == 0 {
			i++
			continue
		}
		out = append(out, [2]int{i, i + m[1]})
		i += m[1]
	}
	return out
}

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

// finding is a finding or allergy pattern with the lower-case literals
// (triggers) one of which every match holds. With object set, the words
// after the match belong to the key (see withObject).
type finding struct {
	re       *regexp.Regexp
	triggers []string
	object   bool
}

var (
	positiveNegative = []string{"positive", "negative"}
	findings         = []finding{
		{regexp.MustCompile(`(?i)\b(?:positive for|negative for|no evidence of)\b`), []string{"positive for", "negative for", "no evidence of"}, true},
		{regexp.MustCompile(`(?i)\b(?:allergic (?:reaction )?to|allerg(?:y|ies) to|anaphylaxis to)\b`), []string{"allerg", "anaphylaxis to"}, true},
		{regexp.MustCompile(`(?i)\b(?:[A-Za-z0-9][\w-]* ){1,2}(?:is|was|are|were) (?:\w+ )?(?:positive|negative)\b`), positiveNegative, false},
		{regexp.MustCompile(`(?i)\b[A-Za-z0-9][\w-]*:?[ -](?:positive|negative)\b`), positiveNegative, false},
		{regexp.MustCompile(`(?:[A-Za-z0-9][\w\-./]*\s?|\p{Han}{1,8})?[(（]\s?[+\-−±]{1,4}\s?[)）]`), []string{"(", "（"}, false},
		{regexp.MustCompile(`(?:[A-Za-z0-9][\w\-]*\s?)?\p{Han}{0,8}(?:阳性|阴性)`), []string{"阳性", "阴性"}, false},
		{regexp.MustCompile(`未见[^，。；,;.\s]{0,12}`), []string{"未见"}, false},
		{regexp.MustCompile(`(?i)\bno known (?:drug )?allergies\b|\bNKDA\b|\banaphyla\w*`), []string{"allergies", "nkda", "anaphyla"}, false},
		{regexp.MustCompile(`对[^，。；,;、]{1,12}?过敏|\p{Han}{1,8}?过敏史?`), []string{"过敏"}, false},
	}
)

// How far around a trigger find looks for the pattern, in bytes. Every
// pattern's match lies within this reach of its trigger.
const (
	findBehind = 64
	findAhead  = 48
)

// find returns the matches of f in s (lower is asciiLower(s)) that hold an
// occurrence of a trigger. It runs the pattern only on a short window around
// each occurrence: Go's regular expressions are slow on long texts when a
// pattern starts with an optional part.
func (f *finding) find(s, lower string) [][2]int {
	var out [][2]int
	for _, t := range f.triggers {
		for from := 0; ; {
			j := strings.Index(lower[from:], t)
			if j < 0 {
				break
			}
			at := from + j
			from = at + len(t)
			lo, hi := windowStart(s, at-findBehind, at), windowEnd(s, from+findAhead)
			for _, m := range f.re.FindAllStringIndex(s[lo:hi], -1) {
				if start, end := lo+m[0], lo+m[1]; start < from && end > at {
					out = append(out, [2]int{start, end})
				}
			}
		}
	}
	return out
}

// windowStart moves i (clamped to [0, limit]) forward to the start of a
// word, so that a pattern's \b at the window's edge means what it means in
// the whole text.
func windowStart(s string, i, limit int) int {
	i = max(i, 0)
	for i < limit && (i > 0 && isWordByte(s[i-1]) || !utf8.RuneStart(s[i])) {
		i++
	}
	return i
}

// windowEnd moves i (clamped to len(s)) back to a rune boundary.
func windowEnd(s string, i int) int {
	i = min(i, len(s))
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

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
	for _, m := range findValues(s) {
		add(m[0], m[1])
	}
	lower := asciiLower(s)
	for i := range findings {
		f := &findings[i]
		for _, m := range f.find(s, lower) {
			start, end := m[0], m[1]
			switch {
			case f.object:
				end = withObject(s, end)
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
