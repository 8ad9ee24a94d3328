package clinical

import (
	"strings"

	"github.com/medkb/medkb/internal/base"
	"github.com/medkb/medkb/internal/text"
)

// How a tier was decided, in order of precedence.
const (
	ByTierField = "tier field" // the document said so
	ByTypeTable = "type table" // its type is in TypeTable
	ByTextRule  = "text rule"  // a rule of TextRules fired, or none did
)

// FallbackRule names the decision when no text rule fires: T4.
const FallbackRule = "fallback"

// Reason explains a tier: By is one of ByTierField, ByTypeTable and
// ByTextRule; Name is the type-table entry or text rule that decided ("lab",
// "imaging"), FallbackRule when no rule fired, "" for the tier field.
type Reason struct {
	By   string
	Name string
}

// String renders the reason as "tier field", "type table: lab" or
// "text rule: imaging".
func (r Reason) String() string {
	if r.Name == "" {
		return r.By
	}
	return r.By + ": " + r.Name
}

// Classify decides the tier of a document or segment: an explicit tier
// wins; else its type, when TypeTable knows it; else the first text rule
// that fires on txt without its administrative sentences (see firstRule
// and Administrative: a copy-forward header such as "复制自既往病程记录"
// names a history, yet says nothing of the text's kind); else T4. The
// text rules look at the whole text, so a long note that mentions a CT
// once is T2: classify sentences (or chunks) rather than whole notes when
// the note mixes kinds.
func Classify(typ string, tier base.Tier, txt string) (base.Tier, Reason) {
	if tier.Valid() {
		return tier, Reason{By: ByTierField}
	}
	if e, ok := lookupType(typ); ok {
		return e.Tier, Reason{By: ByTypeTable, Name: e.Type}
	}
	if r := firstRule(clinicalPart(txt)); r != nil {
		return r.Tier, Reason{By: ByTextRule, Name: r.Name}
	}
	return base.T4, Reason{By: ByTextRule, Name: FallbackRule}
}

// clinicalPart is txt without its administrative sentences, or txt when
// every sentence is administrative (a text is never classified as
// empty).
func clinicalPart(txt string) string {
	sentences := text.Sentences(txt)
	if len(sentences) < 2 {
		return txt
	}
	kept := sentences[:0:0]
	for _, s := range sentences {
		if !Administrative(s) {
			kept = append(kept, s)
		}
	}
	if len(kept) == len(sentences) || len(kept) == 0 {
		return txt
	}
	return strings.Join(kept, "\n")
}

// Permanent reports whether evidence classified for reason r stays true
// however old its record is: a documented allergy or a genetic result.
// Ask it of Classify(typ, base.TierNone, text), so that the type decides
// when the type table knows it, else the first text rule that fires (an
// explicit tier says nothing about permanence). Time decay spares such
// evidence (pack.Candidate.Permanent): the paper opens with a
// ten-year-old penicillin anaphylaxis that must not lose to yesterday's
// cough.
func (r Reason) Permanent() bool {
	switch r.Name {
	case "allergy", "genetic", "genetic test":
		return true
	}
	return false
}

// SegmentType returns the kind of a sentence for turning a vignette into
// typed segments: "pathology", "allergy", "imaging", "ecg", "lab", "exam",
// "complaint" or "history", from the first text rule that fires (genetic
// tests count as "pathology", endoscopy as "imaging", function tests as
// "lab"), or "" when none does. TierOfType of a non-empty answer equals the
// tier Classify gives the sentence.
func SegmentType(sentence string) string {
	if r := firstRule(sentence); r != nil {
		return r.Segment
	}
	return ""
}

// firstRule returns the first text rule that fires on s as written or
// read in Simplified Chinese (text.Simplified: a Traditional 檢驗 is 检验,
// while Japanese keeps its 身体所見), or nil. A rule that skips
// narratives is passed over when s reads as one (asked once, of the first
// such rule that fires), and then the narrative rule fires in its place,
// unless a later rule that does not skip them (an allergy) fires first.
func firstRule(s string) *TextRule {
	lower := asciiLower(s)
	simple := text.Simplified(s)
	simpleLower := lower
	if simple != s {
		simpleLower = asciiLower(simple)
	}
	found := ruleLiterals.find(s, lower)
	var foundSimple literalSet // found in simple, at its first use
	told := -1                 // whether s is a narrative: unknown, no (0), yes (1)
	for i := range TextRules {
		r := &TextRules[i]
		if r.Narrative {
			if told == 1 {
				return r
			}
			continue
		}
		fires := r.matches(s, lower, found)
		if !fires && simple != s {
			if foundSimple == nil {
				foundSimple = ruleLiterals.find(simple, simpleLower)
			}
			fires = r.matches(simple, simpleLower, foundSimple)
		}
		if !fires {
			continue
		}
		if r.SkipInNarrative {
			if told < 0 {
				told = 0
				if narrative(simple) {
					told = 1
				}
			}
			if told == 1 {
				continue
			}
		}
		return r
	}
	return nil
}
