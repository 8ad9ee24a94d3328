package clinical

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Units after a number. Lab units signal a laboratory value on their own
// (the "lab value" text rule); vital-sign and other units need context.
// A unit that ends in a letter or digit must end a word ("5 mg" but not
// "5 mgx"). The "×10^9/L" family is read by tenPowerPerLitre.
var (
	labUnits = []string{
		"mL/min/1.73 m2", "mL/min/1.73m2", "mL/min/1.73 m²", "mL/min/1.73m²", "mL/min",
		"mmol/L", "µmol/L", "μmol/L", "umol/L", "nmol/L", "pmol/L", "mEq/L", "mOsm/kg",
		"mIU/mL", "mIU/L", "µIU/mL", "μIU/mL", "uIU/mL", "µU/mL", "μU/mL", "uU/mL", "mU/mL", "mU/L",
		"IU/mL", "IU/L", "U/mL", "U/L", "mg/dL", "gm/dL", "mg/mL", "mg/L", "mg/24h", "mg/24 h", "g/dL", "g/L", "g/24h", "g/24 h",
		"ng/mL", "ng/ml", "ng/dL", "ng/L", "pg/mL", "pg/cell", "fmol/cell", "µg/mL", "μg/mL", "ug/mL", "µg/dL", "μg/dL", "ug/dL",
		"µg/L", "μg/L", "ug/L", "mm/hr", "mm/h", "cells/µL", "cells/μL", "cells/uL", "cells/mm3",
		"cells/mm^3", "copies/mL", "RBC/hpf", "/mm3", "/mm^3", "/mm³", "/µL", "/μL", "/uL", "/HPF", "/hpf", "/LPF", "fL", "fl", "µm3", "μm3", "%",
	}
	vitalUnits = []string{
		"mmHg", "mm Hg", "cmH2O", "cm H2O", "℃", "°C", "°F", "/min", "bpm", "beats/min",
		"breaths/min", "次/分", "次/min",
	}
	otherUnits = []string{
		"kg/m2", "kg/m²", "mg/kg", "mg", "mcg", "µg", "μg", "kg", "g", "mL", "ml", "L",
		"mm", "cm", "dB", "mV", "ms", "seconds", "sec",
	}
	rangeSeps = []string{"-", "–", "—", "~", "～", "至", "to"}
	dimSeps   = []string{"×", "x", "X", "*"}

	lengthUnit = unitList{units: []string{"mm", "cm"}}
	otherUnit  = unitList{units: longestFirst(vitalUnits, otherUnits)}
	// Laboratory units are written "mg/dl" and "mmol/l" as often as
	// "mg/dL" (German reports always).
	labUnit = unitList{units: longestFirst(labUnits), fold: true}
)

// unitList is a list of units, longest first. With fold set, a unit with a
// slash matches without regard to case; one without must match as
// written, so that "grade 3 FL" (follicular lymphoma) is no femtolitre.
type unitList struct {
	units []string
	fold  bool
}

// longestFirst merges unit lists, longest first, so that "mg/dL" is tried
// before "mg".
func longestFirst(lists ...[]string) []string {
	all := slices.Concat(lists...)
	slices.SortStableFunc(all, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return all
}

// findValues returns the spans of the values with units in s, leftmost
// first and not overlapping. At one position it prefers, in order, a blood
// pressure (125/85 mm Hg), a dimension (8 mm × 6 mm, 3.2×2.1×1.5 cm), a
// range (4～5cm, 200–430 mg/dL) and a single value (2.3 ng/mL, < 0.04
// ng/mL, 12.5×10^9/L), and last a decimal without a unit right after a
// name (pH 7.31, INR 1.2, 等位基因比0.62). It is a hand-written scanner
// because the same grammar as one regular expression is too large for
// Go's fast matcher and costs about 100µs on an 80-word report.
func findValues(s string) [][2]int {
	return scanValues(s, func(s string, i int) int {
		for _, try := range []func(string, int) int{bloodPressure, dimension, valueRange, singleValue, namedDecimal} {
			if end := try(s, i); end > i {
				return end
			}
		}
		return -1
	})
}

// findLabValues returns the spans of numbers with a laboratory unit.
func findLabValues(s string) [][2]int {
	return scanValues(s, func(s string, i int) int {
		if j := number(s, i); j > 0 {
			return labUnitAt(s, space(s, j))
		}
		return -1
	})
}

// scanValues tries at at every position where a value can start (a digit
// or a comparator) and collects the matches, leftmost first.
func scanValues(s string, at func(s string, i int) int) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		c := s[i]
		if c >= '0' && c <= '9' || c == '<' || c == '>' || strings.HasPrefix(s[i:], "≤") || strings.HasPrefix(s[i:], "≥") {
			if end := at(s, i); end > i {
				out = append(out, [2]int{i, end})
				i = end
				continue
			}
		}
		i++
	}
	return out
}

func bloodPressure(s string, i int) int {
	j := digits(s, i, 2, 3)
	if j < 0 || !strings.HasPrefix(s[space(s, j):], "/") {
		return -1
	}
	j = digits(s, space(s, space(s, j)+1), 2, 3)
	if j < 0 {
		return -1
	}
	j = space(s, j)
	if !strings.HasPrefix(s[j:], "mm") {
		return -1
	}
	j = space(s, j+2)
	if !strings.HasPrefix(s[j:], "Hg") {
		return -1
	}
	return j + 2
}

func dimension(s string, i int) int {
	j := number(s, i)
	if j < 0 {
		return -1
	}
	j = space(s, j)
	if k := unitAt(s, j, lengthUnit); k > 0 {
		if end := dimensionRest(s, space(s, k)); end > 0 {
			return end
		}
	}
	return dimensionRest(s, j)
}

// dimensionRest reads "× 6 mm" or "× 2.1 × 1.5 cm" after the first number
// of a dimension; the last number must carry a length unit.
func dimensionRest(s string, j int) int {
	j = literalAt(s, j, dimSeps)
	if j < 0 {
		return -1
	}
	j = number(s, space(s, j))
	if j < 0 {
		return -1
	}
	j = space(s, j)
	for _, withUnit := range []bool{true, false} {
		k := j
		if withUnit {
			if k = unitAt(s, k, lengthUnit); k < 0 {
				continue
			}
			k = space(s, k)
		}
		if m := literalAt(s, k, dimSeps); m > 0 {
			if m = number(s, space(s, m)); m > 0 {
				if end := unitAt(s, space(s, m), lengthUnit); end > 0 {
					return end
				}
			}
		}
		if end := unitAt(s, k, lengthUnit); end > 0 {
			return end
		}
	}
	return -1
}

// valueRange reads a range with its unit (4～5cm, 200–430 mg/dL). In
// "HCO3- 8 mmol/L" the "3-" is the end of an ion's name and its charge,
// not the start of a range: a number glued to a word before it and to a
// "-" after it, with space after the "-", starts no range.
func valueRange(s string, i int) int {
	j := number(s, i)
	if j < 0 {
		return -1
	}
	if i > 0 && isWordByte(s[i-1]) && strings.HasPrefix(s[j:], "-") && space(s, j+1) > j+1 {
		return -1
	}
	j = space(s, j)
	starts := []int{j}
	if k := anyUnitAt(s, j); k > 0 {
		starts = []int{space(s, k), j}
	}
	for _, k := range starts {
		if k = literalAt(s, k, rangeSeps); k < 0 {
			continue
		}
		if k = number(s, space(s, k)); k < 0 {
			continue
		}
		if end := anyUnitAt(s, space(s, k)); end > 0 {
			return end
		}
	}
	return -1
}

func singleValue(s string, i int) int {
	j := i
	if k := literalAt(s, j, []string{"<", ">", "≤", "≥"}); k > 0 {
		if strings.HasPrefix(s[k:], "=") {
			k++
		}
		j = space(s, k)
	}
	if j = number(s, j); j < 0 {
		return -1
	}
	if strings.HasPrefix(s[j:], "-") { // "a 2.3-cm mass", but not "a 2-day history"
		return unitAt(s, j+1, lengthUnit)
	}
	return anyUnitAt(s, space(s, j))
}

// namedDecimal reads a decimal number without a unit that follows a name,
// with at most a space or a sign between: ratios and indices (pH 7.31,
// INR 1.2, Z值+2.8) are values too. Whole numbers without a unit are not
// (grade 2, 3 children).
func namedDecimal(s string, i int) int {
	j := number(s, i)
	if j < 0 || !strings.Contains(s[i:j], ".") || j < len(s) && isWordByte(s[j]) {
		return -1
	}
	k := i
	if k > 0 && (s[k-1] == '+' || s[k-1] == '-') {
		k--
	}
	if k > 0 && s[k-1] == ' ' {
		k--
	}
	if r, _ := utf8.DecodeLastRuneInString(s[:k]); !unicode.IsLetter(r) { // k == 0 gives RuneError
		return -1
	}
	return j
}

// number reads digits with decimal or thousands separators (2.3, 16,400).
func number(s string, i int) int {
	j := digits(s, i, 1, len(s))
	for j > 0 && j+1 < len(s) && (s[j] == '.' || s[j] == ',') && isDigit(s[j+1]) {
		j = digits(s, j+1, 1, len(s))
	}
	return j
}

// digits reads between least and most digits followed by a non-digit.
func digits(s string, i, least, most int) int {
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if n := j - i; n < least || n > most {
		return -1
	}
	return j
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// space skips one optional space or tab.
func space(s string, i int) int {
	if i >= 0 && i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		return i + 1
	}
	return i
}

// anyUnitAt returns the end of the unit at s[i:], or -1: a laboratory
// unit in any case (labUnitAt), else a vital-sign or other unit as written.
func anyUnitAt(s string, i int) int {
	if end := labUnitAt(s, i); end > 0 {
		return end
	}
	return unitAt(s, i, otherUnit)
}

// labUnitAt returns the end of the laboratory unit at s[i:], or -1.
func labUnitAt(s string, i int) int {
	if end := tenPowerPerLitre(s, i); end > 0 {
		return end
	}
	return unitAt(s, i, labUnit)
}

// unitAt returns the end of the first unit of l at s[i:], or -1.
func unitAt(s string, i int, l unitList) int {
	if i < 0 || i >= len(s) {
		return -1
	}
	for _, u := range l.units {
		if len(s)-i < len(u) {
			continue
		}
		w := s[i : i+len(u)]
		if (w == u || l.fold && strings.Contains(u, "/") && strings.EqualFold(w, u)) && endsWord(s, i+len(u)) {
			return i + len(u)
		}
	}
	return -1
}

// tenPowerPerLitre reads "×10^9/L", "x10^9/L", "× 10⁹/L" and the like.
func tenPowerPerLitre(s string, i int) int {
	if i < 0 {
		return -1
	}
	j := literalAt(s, i, dimSeps)
	if j < 0 {
		return -1
	}
	j = space(s, j)
	if !strings.HasPrefix(s[j:], "10") {
		return -1
	}
	j += 2
	if strings.HasPrefix(s[j:], "^") {
		j++
	}
	k := j
	for k < len(s) {
		if isDigit(s[k]) {
			k++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[k:])
		if !strings.ContainsRune("⁰¹²³⁴⁵⁶⁷⁸⁹", r) {
			break
		}
		k += size
	}
	if k == j {
		return -1
	}
	k = space(s, k)
	if strings.HasPrefix(s[k:], "/") {
		if l := space(s, k+1); strings.HasPrefix(s[l:], "L") && endsWord(s, l+1) {
			return l + 1 // ×10^9/L
		}
		return -1
	}
	return unitAt(s, k, labUnit) // ×10^3 IU/mL, ×10^6 copies/mL
}

// literalAt returns the end of the first of list at s[i:], or -1.
func literalAt(s string, i int, list []string) int {
	if i < 0 {
		return -1
	}
	for _, l := range list {
		if strings.HasPrefix(s[i:], l) {
			return i + len(l)
		}
	}
	return -1
}

// endsWord reports whether a token ending at end (exclusive) ends a word:
// it ends in a non-word byte, or the next byte is not a word byte.
func endsWord(s string, end int) bool {
	return end >= len(s) || !isWordByte(s[end-1]) || !isWordByte(s[end])
}
