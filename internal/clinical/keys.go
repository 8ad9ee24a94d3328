package clinical

import (
	"iter"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/medkb/medkb/internal/text"
)

// finding is a finding or allergy pattern with the lower-case literals
// (triggers) one of which every match holds. With object set, the words
// after the match belong to the key (see withObject). With reject set, a
// match s[start:end] for which it reports true is no key. needs, when
// set, are lower-case literals one of which every match holds too, rarer
// than the triggers: a window around a trigger that holds none of them
// holds no match.
type finding struct {
	re       *regexp.Regexp
	triggers []string
	needs    []string
	object   bool
	reject   func(s string, start, end int) bool
}

var (
	positiveNegative = []string{"positive", "negative"}
	findings         = []finding{
		{re: regexp.MustCompile(`(?i)\b(?:positive for|negative for|no evidence of)\b`), triggers: []string{"positive for", "negative for", "no evidence of"}, object: true},
		{re: regexp.MustCompile(`(?i)\b(?:allergic (?:reaction )?to|allerg(?:y|ies) to|anaphylaxis to)\b`), triggers: []string{"allerg", "anaphylaxis to"},
			needs: []string{"allergic to", "allergic reaction to", "allergy to", "allergies to", "anaphylaxis to"}, object: true},
		{re: regexp.MustCompile(`(?i)\b[a-z][\w-]* allerg(?:y|ies)\b`), triggers: []string{"allerg"}, needs: []string{" allergy", " allergies"}, reject: notAnAllergen}, // "penicillin allergy"
		{re: regexp.MustCompile(`(?i)\b(?:[A-Za-z0-9][\w-]* ){1,2}(?:is|was|are|were) (?:\w+ )?(?:positive|negative)\b`), triggers: positiveNegative,
			needs: []string{" is ", " was ", " are ", " were "}}, // the space before the verb ends the subject
		{re: regexp.MustCompile(`(?i)\b[A-Za-z0-9][\w-]*:?[ -](?:positive|negative)\b`), triggers: positiveNegative},
		{re: regexp.MustCompile(`(?:[A-Za-z0-9][\w\-./]*\s?|\p{Han}{1,8})?[(（]\s?[+\-−±]{1,4}\s?[)）]`), triggers: []string{"(", "（"}},
		{re: regexp.MustCompile(`(?:[A-Za-z0-9][\w\-]*\s?)?\p{Han}{0,8}(?:阳性|阴性)`), triggers: []string{"阳性", "阴性"}},
		{re: regexp.MustCompile(`未见[^，。；,;.\s]{0,12}`), triggers: []string{"未见"}},
		{re: regexp.MustCompile(`(?i)\bno known (?:drug )?allergies\b|\bNKDA\b|\banaphyla\w*`), triggers: []string{"allergies", "nkda", "anaphyla"},
			needs: []string{"no known ", "nkda", "anaphyla"}},
		{re: regexp.MustCompile(`对[^，。；,;、]{1,12}?过敏|\p{Han}{1,8}?过敏史?`), triggers: []string{"过敏"}},
		{re: regexp.MustCompile(`否认[^，。；,;.\s]{0,16}?过敏史?`), triggers: []string{"过敏"}}, // a whole denial, past 8 characters
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
// pattern starts with an optional part; and not on a window that holds
// none of f.needs, unless s has a rune that (?i) folds to an ASCII letter
// (folds is foldsToASCII(s); see gatedRe).
func (f *finding) find(s, lower string, folds bool) [][2]int {
	var out [][2]int
	for w := range f.windows(s, lower) {
		if f.needs != nil && !folds && !containsAny(lower[w.lo:w.hi], f.needs) {
			continue
		}
		for _, m := range f.re.FindAllStringIndex(s[w.lo:w.hi], -1) {
			if start, end := w.lo+m[0], w.lo+m[1]; start < w.end && end > w.at {
				out = append(out, [2]int{start, end})
			}
		}
	}
	return out
}

// window is the span [lo, hi) of a text around one occurrence [at, end)
// of a finding's trigger, which find runs the pattern on.
type window struct{ lo, hi, at, end int }

// windows yields the window around each occurrence of each of f's
// triggers in s (lower is asciiLower(s)), trigger by trigger.
func (f *finding) windows(s, lower string) iter.Seq[window] {
	return func(yield func(window) bool) {
		for _, t := range f.triggers {
			for from := 0; ; {
				j := strings.Index(lower[from:], t)
				if j < 0 {
					break
				}
				at := from + j
				from = at + len(t)
				if !yield(window{windowStart(s, at-findBehind, at), windowEnd(s, from+findAhead), at, from}) {
					return
				}
			}
		}
	}
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
	keys, _ := keySpans(s)
	return distinctKeys(s, keys)
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
// start the longer; and the spans of its reference ranges (refRanges),
// which hold no key.
func keySpans(s string) (keys, refs [][2]int) {
	if simple := text.Simplified(s); simple != s && sameShape(simple, s) {
		s = simple // same offsets: 陽性 reads as 阳性, 過敏 as 过敏
	}
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
	folds := foldsToASCII(s)
	for i := range findings {
		f := &findings[i]
		for _, m := range f.find(s, lower, folds) {
			start, end := m[0], m[1]
			switch {
			case f.reject != nil && f.reject(s, start, end):
				continue
			case f.object:
				end = withObject(s, end)
			case strings.HasPrefix(s[end:], "性"): // 过敏性鼻炎 is a disease, not an allergy
				continue
			case strings.HasPrefix(s[end:], " for "): // "is positive for X"
				end = withObject(s, end+len(" for"))
			case strings.Contains(s[start:end], "抗过敏"): // anti-allergy treatment
				continue
			case strings.HasPrefix(s[start:end], "否认"): // a denial keeps its verb, even before 对
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
	refs = refRanges(s)
	kept := spans[:0]
	for _, sp := range spans {
		if (len(kept) == 0 || sp[0] >= kept[len(kept)-1][1]) && !within(sp, refs) {
			kept = append(kept, sp)
		}
	}
	return kept, refs
}

// notAllergens are the words before "allergy" that do not name what the
// patient is allergic to (besides objectStops).
var notAllergens = regexp.MustCompile(`(?i)^(?:a|an|the|no|any|his|her|their|of|known|severe|mild|moderate|documented|reported|suspected|possible|seasonal)$`)

// allergyNegation finds a denial earlier in the clause: "no known food or
// latex allergy" must not yield the key "latex allergy".
var allergyNegation = regexp.MustCompile(`(?i)\b(?:no|not|denies|denied|without|negative)\b`)

// notAnAllergen rejects an "X allergy" match s[start:end] whose X names
// no allergen ("severe allergy"), that an "allergy to Y" follows (that
// pattern's key), or whose clause denies it.
func notAnAllergen(s string, start, end int) bool {
	x, _, _ := strings.Cut(s[start:end], " ")
	clause := s[strings.LastIndexAny(s[:start], ".;:,，。；：")+1 : start]
	return notAllergens.MatchString(x) || objectStops.MatchString(x) ||
		strings.HasPrefix(s[end:], " to ") || allergyNegation.MatchString(clause)
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

// within reports whether span sp lies inside one of spans.
func within(sp [2]int, spans [][2]int) bool {
	for _, r := range spans {
		if sp[0] >= r[0] && sp[1] <= r[1] {
			return true
		}
	}
	return false
}

// sameShape reports whether a and b have their runes at the same byte
// offsets, so that a span of one is a span of the other.
func sameShape(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); {
		_, na := utf8.DecodeRuneInString(a[i:])
		if _, nb := utf8.DecodeRuneInString(b[i:]); na != nb {
			return false
		}
		i += na
	}
	return true
}
