package clinical

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/medkb/medkb/internal/text"
)

// Compress returns the fidelity-preserving compression of s (state B).
// A sentence that holds key entities is a findings sentence; from it
// Compress keeps
//   - each clause that holds keys, reduced to the keys and the few words
//     that name them ("creatinine 2.8 mg/dL"); a Chinese clause is kept
//     whole, because it is already short (。，； end it) and without word
//     boundaries no fixed window finds where a name begins: eight
//     characters cut "幽门螺杆菌尿素呼气试验阳性" to "杆菌尿素呼气试验阳性";
//   - every other clause whole but a heading ("Laboratory studies:"): in
//     a findings sentence it is a finding without a number ("心房颤动",
//     "边界清", "which gave him hives"), and dropping it would lose what
//     the packer believes state B keeps;
//   - but in a Chinese allergy history, once the allergen is named, the
//     circumstances before the reaction and the clause on how it ended
//     go: "对头孢类抗生素过敏：2014年静滴头孢曲松后出现全身皮疹、胸闷，
//     经抗过敏治疗后缓解" keeps "对头孢类抗生素过敏：出现全身皮疹、胸闷"
//     (zhReaction), as the English reaction rule keeps "hives".
//
// A sentence without keys is kept whole when it states a result in words
// (shows, reveals, diagnosis, impression, consistent with, 示, 诊断, 提示:
// "Biopsy shows adenocarcinoma, moderately differentiated") and dropped
// otherwise ("Clinical correlation is recommended"); in Chinese it is kept
// unless it is advice, report boilerplate ("建议定期随访") or an abstract's
// aim or method, because a Chinese diagnosis needs no verb
// ("浸润性腺癌，腺泡为主型。").
//
// Reference ranges in brackets ("（3.5-5.3）", "(N < 500 ng/mL)"; see
// refRanges) are no keys, and are cut from the pieces kept whole.
//
// Fragments are joined with "; " (Chinese: "；"), or with the source's own
// punctuation where nothing between them on one line was dropped.
//
// nTotal is len(Keys(s)) and nEntity how many of those keys are substrings
// of b. Without keys there is no state B: b is "". b is never longer than
// s; should the fragments and separators ever outgrow s, b is s trimmed.
// StateB decides whether the packer gets b.
func Compress(s string) (b string, nEntity, nTotal int) {
	spans, refs := keySpans(s)
	if len(spans) == 0 {
		return "", 0, 0
	}
	keys := distinctKeys(s, spans)
	zh := text.Lang(s) == "zh"
	sep := "; "
	if zh {
		sep = "；"
	}
	var frags []fragment
	keepWhole := func(span [2]int) {
		kept := trimEnd(s[span[0]:span[1]])
		frags = append(frags, fragment{kept, span[0]})
	}
	rest := spans
	for _, sent := range sentenceSpans(s) {
		// allergen: the sentence has named a Chinese allergy (zhAllergen),
		// so what follows in it tells the reaction and its course.
		allergen := false
		var inSentence [][2]int
		inSentence, rest = spansWithin(rest, sent)
		if len(inSentence) == 0 {
			if sentence := s[sent[0]:sent[1]]; statesResult(sentence) || zh && !noFindingTerms.any(sentence) {
				keepWhole(sent)
			}
			continue
		}
		for _, cl := range clauseSpans(s, sent, inSentence, zh) {
			var inClause [][2]int
			inClause, inSentence = spansWithin(inSentence, cl)
			clause := s[cl[0]:cl[1]]
			if zh {
				drop, ok := zhReaction(clause, shift(inClause, -cl[0]), allergen)
				allergen = allergen || zhAllergen(s, inClause)
				if ok {
					if drop[1] < len(clause) {
						kept := withoutRanges(s, cl[0], cl[0]+drop[0], refs) + trimEnd(withoutRanges(s, cl[0]+drop[1], cl[1], refs))
						frags = append(frags, fragment{kept, -1})
					}
					continue
				}
			}
			switch {
			case len(inClause) > 0 && zh:
				keepWhole(cl)
			case len(inClause) > 0:
				frags = append(frags, fragment{focus(clause, shift(inClause, -cl[0])), -1})
			case !IsHeading(clause):
				keepWhole(cl)
			}
		}
	}
	b = join(s, frags, sep, refs)
	if whole := strings.TrimSpace(s); b == "" || len(b) > len(whole) {
		b = whole
	}
	for _, k := range keys {
		if strings.Contains(b, k) {
			nEntity++
		}
	}
	return b, nEntity, len(keys)
}

// StateB is the state B a chunk of tokensA tokens gets, with its token
// count: Compress(s), unless that saves fewer than minSavedTokens tokens or
// a tenth of tokensA (count counts them, as the packer will), when there
// is none (b is ""). A state B that reads almost like the original is no
// use: the packer would weigh two near-copies, and the context would spend
// a "compressed" tag on a copy. Most Chinese findings are keys from end to
// end ("血钾 5.9mmol/L。") and get none.
func StateB(s string, tokensA int, count func(string) int) (b string, tokensB, nEntity, nTotal int) {
	b, nEntity, nTotal = Compress(s)
	if b == "" {
		return "", 0, 0, nTotal
	}
	tokensB = count(b)
	if saved := tokensA - tokensB; saved < minSavedTokens || 10*saved < tokensA {
		return "", 0, 0, nTotal
	}
	return b, tokensB, nEntity, nTotal
}

// minSavedTokens is the least a state B must save: one token pays for the
// "compressed" tag of its context line.
const minSavedTokens = 2

// fragment is a piece of state B: a clause or sentence kept whole, with
// the offset where it starts in the source, or a clause cut down to its
// keys (start -1).
type fragment struct {
	text  string
	start int
}

// join joins the fragments of s with sep, except that two whole pieces
// with only punctuation (and spaces) between them on one line of s keep
// what was between them: where nothing was dropped, state B reads as
// written ("膜性肾病，Ⅱ期" stays one finding rather than "膜性肾病；Ⅱ期").
// The ranges of s (reference ranges, by offset in s) that lie inside a
// whole piece are cut from it.
func join(s string, frags []fragment, sep string, ranges [][2]int) string {
	var b strings.Builder
	for i, f := range frags {
		if i > 0 {
			prev := frags[i-1]
			end := prev.start + len(prev.text)
			if prev.start >= 0 && f.start > end && onlyPunct(s[end:f.start]) {
				b.WriteString(s[end:f.start])
			} else {
				b.WriteString(sep)
			}
		}
		if f.start < 0 {
			b.WriteString(f.text)
			continue
		}
		b.WriteString(withoutRanges(s, f.start, f.start+len(f.text), ranges))
	}
	return b.String()
}

// withoutRanges is s[at:end] without the ranges of s (by offset) that lie
// inside it.
func withoutRanges(s string, at, end int, ranges [][2]int) string {
	var b strings.Builder
	for _, r := range ranges {
		if r[0] >= at && r[1] <= end {
			b.WriteString(s[at:r[0]])
			at = r[1]
		}
	}
	b.WriteString(s[at:end])
	return b.String()
}

// onlyPunct reports whether s holds punctuation, with nothing else but
// spaces and tabs.
func onlyPunct(s string) bool {
	punct := false
	for _, r := range s {
		switch {
		case unicode.IsPunct(r):
			punct = true
		case r != ' ' && r != '\t':
			return false
		}
	}
	return punct
}

// sentenceSpans returns the byte spans of the sentences of s.
func sentenceSpans(s string) [][2]int {
	var out [][2]int
	cursor := 0
	for _, sentence := range text.Sentences(s) {
		// Sentences are trimmed substrings in order, separated by space
		// only, so the first match from the cursor is the sentence itself.
		start := cursor + strings.Index(s[cursor:], sentence)
		cursor = start + len(sentence)
		out = append(out, [2]int{start, cursor})
	}
	return out
}

// spansWithin splits ordered spans into those inside r and those after r.
// Spans that begin before r's end without fitting in r are dropped.
func spansWithin(spans [][2]int, r [2]int) (in, rest [][2]int) {
	i := 0
	for ; i < len(spans) && spans[i][0] < r[1]; i++ {
		if spans[i][0] >= r[0] && spans[i][1] <= r[1] {
			in = append(in, spans[i])
		}
	}
	return in, spans[i:]
}

func shift(spans [][2]int, by int) [][2]int {
	out := make([][2]int, len(spans))
	for i, sp := range spans {
		out[i] = [2]int{sp[0] + by, sp[1] + by}
	}
	return out
}

// conclusionTerms mark sentences that state a result in words rather than
// numbers ("Biopsy shows adenocarcinoma"); they are kept whole.
var conclusionTerms = compileTerms([]string{
	"show", "shows", "showed", "reveal", "reveals", "revealed", "demonstrate", "demonstrates",
	"demonstrated", "diagnosis", "diagnoses", "impression", "conclusion", "conclusions",
	"consistent with", "compatible with", "suggestive of", "diagnostic of",
	"示", "诊断", "结论", "印象", "考虑", "符合",
})

// noFindingTerms mark the Chinese sentences that carry no finding:
// advice, follow-up and report boilerplate, and the aim, background and
// method sections of an abstract. A Chinese diagnosis is often written
// without a verb ("浸润性腺癌，腺泡为主型。"), so in Chinese only these
// keyless sentences are dropped, not every sentence that states no result.
var noFindingTerms = compileTerms([]string{
	"建议", "请结合临床", "结合临床", "定期随访", "门诊随访", "随访观察", "必要时", "供参考", "仅供",
	"如有疑问", "签名", "报告医师", "审核医师", "报告日期", "检查日期", "一般情况可", "一般情况良好",
	"目的：", "目的:", "背景：", "背景:", "方法：", "方法:",
})

// zhReactionMarks introduce the reaction in a Chinese allergy history
// ("静滴后出现全身皮疹", "表现为全身荨麻疹").
var zhReactionMarks = []string{"出现", "表现为"}

// zhCourseTerms mark a clause that tells how an allergic reaction ended
// ("经抗过敏治疗后缓解", "停药后消退"): no key, and no part of the allergy.
var zhCourseTerms = compileTerms([]string{"缓解", "消退", "好转", "痊愈", "治愈"})

// zhAllergen reports whether one of the key spans of s names an allergy
// ("对头孢类抗生素过敏", "碘造影剂过敏史"): not denied ("否认药物过敏史",
// "无药物过敏史") and not a reaction ("过敏性休克"). Traditional
// characters (過敏) do not match, so a Traditional text keeps its
// clauses whole.
func zhAllergen(s string, keys [][2]int) bool {
	for _, sp := range keys {
		k := s[sp[0]:sp[1]]
		if strings.Contains(k, "过敏") && !strings.Contains(k, "过敏性") && !negation.MatchString(k) {
			return true
		}
	}
	return false
}

// zhReaction finds what to drop from a clause of a Chinese allergy
// history, given the clause's key spans. Once the allergen is named
// (allergen, or by a key of the clause before the reaction mark), the
// circumstances between it and the reaction go:
// "对X过敏：2014年静滴头孢曲松后出现全身皮疹" keeps "对X过敏：出现全身皮疹".
// A keyless clause on how the reaction ended, with no reaction of its
// own, goes whole ("经抗过敏治疗后缓解"). drop is the span to cut, in
// bytes of clause; ok is false when the clause stays as it is, as it
// does when the span would hold a key or a negation ("未出现不适" must not
// become "出现不适").
func zhReaction(clause string, keys [][2]int, allergen bool) (drop [2]int, ok bool) {
	mark := -1
	for _, m := range zhReactionMarks {
		if i := strings.Index(clause, m); i >= 0 && (mark < 0 || i < mark) {
			mark = i
		}
	}
	if mark < 0 {
		whole := len(keys) == 0 && allergen && zhCourseTerms.any(clause)
		return [2]int{0, len(clause)}, whole
	}
	lead := 0 // the clause up to here is kept: the allergen and its colon
	for _, sp := range keys {
		if sp[1] <= mark && zhAllergen(clause, [][2]int{sp}) {
			lead, allergen = sp[1], true
		}
	}
	for _, colon := range []string{"：", ":"} {
		if strings.HasPrefix(clause[lead:], colon) {
			lead += len(colon)
		}
	}
	if !allergen || lead >= mark || negation.MatchString(clause[lead:mark]) {
		return drop, false
	}
	for _, sp := range keys {
		if sp[0] < mark && sp[1] > lead {
			return drop, false // a key among the circumstances: keep them
		}
	}
	return [2]int{lead, mark}, true
}

// trimEnd drops the closing punctuation of a sentence or clause kept whole.
func trimEnd(s string) string {
	return strings.TrimRight(s, ".;,。；，")
}

// IsHeading reports whether s introduces what follows ("Laboratory
// studies show:", "血常规：").
func IsHeading(s string) bool { return strings.HasSuffix(s, ":") || strings.HasSuffix(s, "：") }

// statesResult reports whether s states a result in words; a heading
// ("Laboratory studies show:") does not.
func statesResult(s string) bool {
	if IsHeading(s) {
		return false
	}
	return conclusionTerms.any(s)
}

// clauseSpans splits the sentence s[sent[0]:sent[1]] at commas and
// semicolons, but never inside a key (the comma of 16,400, a finding's
// object) nor, in Chinese (zh), inside closed brackets: a Chinese clause
// is kept whole, so "阳性（75%，2+/3+）" stays one. (An English clause is
// cut down to its keys; "(hemolyzed, repeat pending)" must stay clauses of
// their own to survive.) It returns the trimmed clauses' spans.
func clauseSpans(s string, sent [2]int, keys [][2]int, zh bool) [][2]int {
	var out [][2]int
	add := func(start, end int) {
		for start < end && isSpaceByte(s[start]) {
			start++
		}
		for end > start && isSpaceByte(s[end-1]) {
			end--
		}
		if start < end {
			out = append(out, [2]int{start, end})
		}
	}
	start, depth := sent[0], 0
	for i := sent[0]; i < sent[1]; {
		r, size := utf8.DecodeRuneInString(s[i:sent[1]])
		for len(keys) > 0 && keys[0][1] <= i {
			keys = keys[1:]
		}
		switch {
		case !zh:
		case strings.ContainsRune("(（[【", r) && strings.ContainsAny(s[i+size:sent[1]], ")）]】"):
			depth++
		case strings.ContainsRune(")）]】", r):
			depth = max(0, depth-1)
		}
		insideKey := len(keys) > 0 && keys[0][0] <= i
		if !insideKey && depth == 0 && (r == ',' || strings.ContainsRune(";，；", r)) {
			add(start, i)
			start = i + size
		}
		i += size
	}
	add(start, sent[1])
	return out
}

func isSpaceByte(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// Context kept around a key, in units: Latin words or CJK characters (a
// text that is not Chinese overall may still name a value in Chinese,
// "血气分析：pH 7.21"). A value needs the name before it ("creatinine 2.8
// mg/dL"); a finding names itself ("positive for TTF-1") and gets at most
// one word of context.
const (
	wordsBefore        = 3 // content words naming a value (fillers skipped)
	cjkBefore          = 8 // CJK characters naming a value
	wordsBeforeFinding = 1
	wordsAfter         = 2 // content words right after a key ("3.2 cm mass")
	cjkAfter           = 6
	fillerLinkers      = "为是：:" // CJK linkers dropped next to a value
)

// focus reduces a clause to its keys and the words that name them. Spans
// and units are both in order, so one pass over the units serves all keys.
func focus(clause string, spans [][2]int) string {
	units := splitUnits(clause)
	keep := make([]bool, len(units))
	i := 0
	for _, sp := range spans {
		for i < len(units) && units[i].end <= sp[0] {
			i++
		}
		first := i
		for i < len(units) && units[i].start < sp[1] {
			keep[i] = true
			i++
		}
		if i == first {
			continue // defensive: a trimmed key always overlaps a unit
		}
		i-- // the last unit may also hold the next key ("38°C/100.4°F")
		if needsName(clause[sp[0]:]) {
			keepBefore(units, keep, first, wordsBefore, cjkBefore)
		} else {
			keepBefore(units, keep, first, wordsBeforeFinding, 0)
			keepSeverity(units, keep, first)
		}
		if hasReaction(clause, sp) {
			keepReaction(units, keep, i)
		} else {
			keepAfter(units, keep, i)
		}
	}
	return render(clause, units, keep)
}

// allergyTerms mark an allergy key (hasReaction).
var allergyTerms = compileTerms([]string{"allerg*", "anaphyla*"})

// hasReaction reports whether the key clause[sp[0]:sp[1]] is an allergy
// that a reaction may follow: after the allergen comes the reaction
// ("Penicillin allergy: severe urticaria and angioedema"), which matters
// as much. A denied allergy ("no known drug allergies", NKDA) has none.
func hasReaction(clause string, sp [2]int) bool {
	key := clause[sp[0]:sp[1]]
	return allergyTerms.any(key) && !strings.EqualFold(key, "NKDA") && !allergyNegation.MatchString(clause[:sp[1]])
}

// reactionWords bounds the reaction kept after an allergy key.
const reactionWords = 16

// keepReaction marks up to reactionWords units after unit last, the key's
// last, without a filler word at the end ("... benzathine penicillin in"
// would read as cut off).
func keepReaction(units []unit, keep []bool, last int) {
	end := min(len(units), last+1+reactionWords)
	for end > last+1 && isFiller(units[end-1].text) {
		end--
	}
	for j := last + 1; j < end; j++ {
		keep[j] = true
	}
}

// severityTerms grade a finding; one just before a finding's kept name is
// kept with it ("Severe allergy: anaphylaxis to penicillin").
var severityTerms = compileTerms([]string{"mild", "moderate", "severe", "serious", "life-threatening", "fatal"})

// keepSeverity marks a severity word right before the kept units that end
// at unit first.
func keepSeverity(units []unit, keep []bool, first int) {
	j := first - 1
	for j >= 0 && keep[j] {
		j--
	}
	if j >= 0 && !units[j].cjk && severityTerms.any(units[j].text) {
		keep[j] = true
	}
}

// needsName reports whether a key (given as the text from its start) is
// a value with its unit, or a 未见 finding whose subject comes before it
// ("集合系统未见分离"), rather than a finding that names itself.
func needsName(key string) bool {
	r, _ := utf8.DecodeRuneInString(key)
	return r >= '0' && r <= '9' || strings.ContainsRune("<>≤≥", r) || strings.HasPrefix(key, "未见")
}

// keepBefore marks the naming context before unit first: up to maxWords
// content words and maxCJK CJK characters, whichever runs out first.
func keepBefore(units []unit, keep []bool, first, maxWords, maxCJK int) {
	words, cjk := 0, 0
	for i := first - 1; i >= 0 && words < maxWords; i-- {
		u := units[i]
		switch {
		case keep[i]:
			return // the previous key's context: this name is shared
		case u.cjk:
			if cjk == 0 && strings.Contains(fillerLinkers, u.text) {
				continue
			}
			if isCJKPunct(u.text) || cjk >= maxCJK {
				return
			}
			keep[i] = true
			cjk++
		case isFiller(u.text):
			// skipped: "temperature is 38°C" keeps "temperature 38°C"
		default:
			keep[i] = true
			words++
		}
	}
}

// keepAfter marks the content right after unit last ("3.2 cm mass",
// "8 mm × 6 mm结节"), up to the first filler word.
func keepAfter(units []unit, keep []bool, last int) {
	n := 0
	for i := last + 1; i < len(units) && !keep[i]; i++ {
		u := units[i]
		if u.cjk {
			if isCJKPunct(u.text) || n >= cjkAfter {
				return
			}
		} else if isFiller(u.text) || n >= wordsAfter || startsWithPunct(u.text) {
			return
		}
		keep[i] = true
		n++
	}
}

// render writes the kept units: neighbours as written, gaps closed with a
// space (nothing between CJK characters). Trailing clause punctuation goes.
func render(clause string, units []unit, keep []bool) string {
	var b strings.Builder
	prev := -1
	for i, u := range units {
		if !keep[i] {
			continue
		}
		switch {
		case prev < 0:
		case prev == i-1:
			b.WriteString(clause[units[prev].end:u.start])
		case !u.cjk && !units[prev].cjk:
			b.WriteByte(' ')
		}
		b.WriteString(u.text)
		prev = i
	}
	return strings.TrimRight(b.String(), ",;:.，；：、。 ")
}

// unit is a Latin word (a run of non-space, non-CJK characters) or a single
// CJK character.
type unit struct {
	start, end int
	text       string
	cjk        bool
}

func splitUnits(s string) []unit {
	var units []unit
	inWord := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		end := i + size
		switch {
		case unicode.IsSpace(r):
			inWord = false
		case text.IsCJK(r):
			units = append(units, unit{start: i, end: end, text: s[i:end], cjk: true})
			inWord = false
		case inWord:
			u := &units[len(units)-1]
			u.end, u.text = end, s[u.start:end]
		default:
			units = append(units, unit{start: i, end: end, text: s[i:end]})
			inWord = true
		}
		i = end
	}
	return units
}

// isFiller reports whether an English word carries no finding or name:
// articles, pronouns, linking verbs, prepositions.
func isFiller(word string) bool {
	w := strings.TrimFunc(word, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	if w == "BE" {
		return false // base excess ("BE -13.2 mmol/L"), not "be"
	}
	w = strings.ToLower(w)
	switch w {
	case "", "a", "an", "the", "is", "are", "was", "were", "be", "been", "his", "her",
		"their", "its", "this", "that", "he", "she", "it", "they", "patient", "patient's",
		"of", "at", "to", "with", "and", "or", "but", "which", "who", "also", "noted",
		"found", "measured", "showed", "shows", "show", "revealed", "reveals",
		"demonstrated", "demonstrates", "there", "has", "had", "have", "on", "in", "by",
		"as", "today", "says", "said", "states", "stated", "reports", "reported":
		return true
	}
	return false
}

func startsWithPunct(word string) bool {
	r, _ := utf8.DecodeRuneInString(word)
	return unicode.IsPunct(r)
}

func isCJKPunct(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsPunct(r) || unicode.IsSymbol(r)
}
