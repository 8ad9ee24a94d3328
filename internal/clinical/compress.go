package clinical

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/medkb/medkb/internal/text"
)

// Compress returns the fidelity-preserving compression of s (state B): s
// without what is positively known to carry no clinical finding, and
// nothing else.
//
//   - A sentence goes when it is administrative (Administrative): every
//     word in it is a word of report handling, sign-off, disclaimer,
//     technique, contact or follow-up advice ("The specimen was received
//     in formalin", "Clinical correlation is recommended",
//     "以上结果仅对本次送检标本负责", "报告医师：王明"), and it holds no key.
//     Sentences end at . ! ? ; and their Chinese forms and at line ends; a
//     heading (a sentence ending in a colon) goes or stays with the
//     sentence after it, since "Condition:" then "Satisfactory" on the next
//     line is one statement, and so does a line that wraps on to the next
//     ("Specimen received from the" then "left breast.").
//   - A generic heading that opens the text goes ("Laboratory studies
//     show:", "辅助检查："; see GenericHeading). A later one stays: it
//     ends the section of the heading before it ("Urine:"), and without it
//     the values after it would read as that section's.
//   - A reference range printed beside a value goes ("118g/L（130-175）↓"
//     keeps "118g/L↓"; see refRanges): it says what is normal, not what
//     the patient has. Abnormality flags (↑ ↓ H L) stay.
//   - Every other sentence stays whole, word for word, with the spacing
//     of s between kept sentences.
//
// So every phrase of a kept sentence ("severe aortic stenosis", "rash and
// wheeze after ibuprofen", "Hypokinesis of the inferior wall") is a
// substring of b, every key is, and no negation, allergy, diagnosis,
// grade, site or pathogen is ever cut: a word that could name one is no
// administrative word, so its sentence stays. Allergy histories are never
// shortened: the drug given is the allergen, and how the reaction was
// treated tells its severity. (An earlier Compress cut sentences down to
// their keys and a few naming words and dropped keyless sentences that
// did not "state a result"; it lost allergies written without the word
// allergy, tissue diagnoses, severities, the site of a measurement and the
// pathogen of a culture, because F(B) counts only keys and cannot see such
// a loss.)
//
// nTotal is len(Keys(s)) and nEntity how many of those keys are substrings
// of b: all of them, so F(B) is 1 for every state B. b is "" when nothing
// can be cut, or when everything can (a text that is all administration
// has nothing to pack); otherwise b is shorter than s. A text without keys
// may have a state B. StateB decides whether the packer gets b.
func Compress(s string) (b string, nEntity, nTotal int) {
	spans, refs := keySpans(s)
	return compress(s, spans, refs, distinctKeys(s, spans))
}

// compress is Compress given the key spans and reference ranges of s
// (keySpans) and its keys (distinctKeys).
func compress(s string, spans, refs [][2]int, keys []string) (b string, nEntity, nTotal int) {
	cuts := slices.Clone(refs)
	prevEnd := 0    // a dropped sentence takes the space before it along
	opening := true // nothing is kept before this sentence
	sents := sentenceSpans(s)
	for i := 0; i < len(sents); i++ {
		unit := sents[i]
		// A heading goes or stays with what it introduces ("Grade:" then
		// "IV" on the next line is one statement), and a line with what
		// it wraps on to ("Specimen received from the" then "left
		// breast.").
		for i+1 < len(sents) && (IsHeading(s[unit[0]:unit[1]]) || wrapsOn(s[unit[0]:unit[1]], s[sents[i+1][0]:])) {
			i++
			unit[1] = sents[i][1]
		}
		switch {
		case !overlaps(spans, unit[0], unit[1]) && Administrative(s[unit[0]:unit[1]]):
			cuts = append(cuts, [2]int{prevEnd, unit[1]})
		case opening:
			// Only the opening heading may go: a later one ends the
			// scope of the heading before it ("Urine:" ... "Laboratory
			// studies show:"), and without it the values after it would
			// read as the urine's.
			if end := genericHeading(s[unit[0]:unit[1]]); end > 0 {
				cuts = append(cuts, [2]int{unit[0], unit[0] + end})
			}
			opening = false
		}
		prevEnd = unit[1]
	}
	if len(cuts) == 0 {
		return "", 0, len(keys)
	}
	b = strings.TrimSpace(without(s, cuts))
	if b == "" || b == strings.TrimSpace(s) {
		return "", 0, len(keys)
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
// a "compressed" tag on a copy. Most findings have nothing administrative
// around them and no printed reference range, and get none.
func StateB(s string, tokensA int, count func(string) int) (b string, tokensB, nEntity, nTotal int) {
	spans, refs := keySpans(s)
	return stateB(s, spans, refs, distinctKeys(s, spans), tokensA, count)
}

// KeysStateB returns Keys(s) and, when withB is set, the state B of
// StateB(s, tokensA, count) with its tokens and entities (else "" and
// zeros), finding the keys of s once for both: what ingest asks of a
// chunk. len(keys) is StateB's nTotal.
func KeysStateB(s string, withB bool, tokensA int, count func(string) int) (keys []string, b string, tokensB, nEntity int) {
	spans, refs := keySpans(s)
	keys = distinctKeys(s, spans)
	if withB {
		b, tokensB, nEntity, _ = stateB(s, spans, refs, keys, tokensA, count)
	}
	return keys, b, tokensB, nEntity
}

// stateB is StateB given what compress needs.
func stateB(s string, spans, refs [][2]int, keys []string, tokensA int, count func(string) int) (b string, tokensB, nEntity, nTotal int) {
	b, nEntity, nTotal = compress(s, spans, refs, keys)
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

// without returns s without the byte spans cuts, which may overlap and
// come in any order.
func without(s string, cuts [][2]int) string {
	slices.SortFunc(cuts, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	at := 0
	for _, c := range cuts {
		if c[0] > at {
			b.WriteString(s[at:c[0]])
		}
		at = max(at, c[1])
	}
	b.WriteString(s[at:])
	return b.String()
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

// wrapsOn reports whether the line that ends with sentence goes on in
// next, the text from the next sentence on: it ends in a comma, or it has
// no closing punctuation and next starts with a small letter. (A Chinese
// line without closing punctuation is as often a list item as a wrapped
// sentence, so it stands alone.)
func wrapsOn(sentence, next string) bool {
	last, _ := utf8.DecodeLastRuneInString(sentence)
	first, _ := utf8.DecodeRuneInString(next)
	return strings.ContainsRune(",，、", last) || !strings.ContainsRune(".!?;。！？；", last) && unicode.IsLower(first)
}

// IsHeading reports whether s introduces what follows ("Laboratory
// studies show:", "血常规：").
func IsHeading(s string) bool { return strings.HasSuffix(s, ":") || strings.HasSuffix(s, "：") }
