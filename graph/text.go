package graph

import (
	"strings"
	"unicode"
)

// Text renders the path as a line of evidence text in the language of its
// entity names: Chinese when any name contains a Han character, else
// English. Relations with a template read as prose:
//
//	Compound Metformin binds Gene PRKAA1, which is associated with Disease type 2 diabetes mellitus
//	方剂 荆防败毒散 组成包含 中药 荆芥；方剂 人参败毒散 组成包含 中药 荆芥
//
// English chains clauses with "which"; Chinese states each edge in its
// own direction, separated by "；". A relation without a template reads
// as its name (underscores as spaces), and an English backward step
// without one as "..., which T N rel". Runs of white space in names,
// line breaks included, read as one space: the text is one line, as a
// packed context needs (a name is free text from the graph's source).
func (p Path) Text() string {
	return strings.Join(strings.Fields(p.text()), " ")
}

func (p Path) text() string {
	if len(p.Relations) == 0 || len(p.Nodes) != len(p.Relations)+1 {
		if len(p.Nodes) == 0 {
			return ""
		}
		return noun(p.Nodes[0])
	}
	if p.chinese() {
		return p.chineseText()
	}
	return p.englishText()
}

func (p Path) chinese() bool {
	for _, n := range p.Nodes {
		if strings.IndexFunc(n.Name, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0 {
			return true
		}
	}
	return false
}

func (p Path) englishText() string {
	var b strings.Builder
	b.WriteString(noun(p.Nodes[0]))
	for i, rel := range p.Relations {
		next := noun(p.Nodes[i+1])
		ph, ok := englishPhrase(rel)
		if i > 0 || (p.Reverse[i] && !ok) {
			b.WriteString(", which ")
		} else {
			b.WriteString(" ")
		}
		switch {
		case !ok && p.Reverse[i]: // "Gene X, which Disease Y associates"
			b.WriteString(next + " " + typeWords(rel))
		case !ok:
			b.WriteString(typeWords(rel) + " " + next)
		case p.Reverse[i]:
			b.WriteString(ph.backward + " " + next)
		default:
			b.WriteString(ph.forward + " " + next)
		}
	}
	return b.String()
}

// noun writes a node as "Type Name".
func noun(n Node) string { return typeWords(n.Type) + " " + n.Name }

func (p Path) chineseText() string {
	clauses := make([]string, len(p.Relations))
	for i, rel := range p.Relations {
		head, tail := p.Nodes[i], p.Nodes[i+1]
		if p.Reverse[i] {
			head, tail = tail, head
		}
		verb, ok := chineseVerb(rel)
		if !ok {
			verb = rel
		}
		subject := chineseType(head.Type) + " " + head.Name
		if i > 0 && !p.Reverse[i] && !p.Reverse[i-1] {
			subject = head.Name // introduced by the clause before
		}
		clauses[i] = subject + " " + verb + " " + chineseType(tail.Type) + " " + tail.Name
	}
	return strings.Join(clauses, "；")
}

// typeWords writes a type or relation name as words.
func typeWords(name string) string { return strings.ReplaceAll(name, "_", " ") }

// phrase is how a relation reads forwards (head to tail) and backwards.
type phrase struct{ forward, backward string }

// englishPhrase is the English template table.
func englishPhrase(rel string) (phrase, bool) {
	switch rel {
	case "binds":
		return phrase{"binds", "is bound by"}, true
	case "associates":
		return phrase{"is associated with", "is associated with"}, true
	case "treats":
		return phrase{"treats", "is treated by"}, true
	case "palliates":
		return phrase{"palliates", "is palliated by"}, true
	case "resembles":
		return phrase{"resembles", "resembles"}, true
	case "upregulates":
		return phrase{"upregulates", "is upregulated by"}, true
	case "downregulates":
		return phrase{"downregulates", "is downregulated by"}, true
	case "regulates":
		return phrase{"regulates", "is regulated by"}, true
	case "localizes":
		return phrase{"localizes to", "is the site of"}, true
	case "interacts", "interacts_with":
		return phrase{"interacts with", "interacts with"}, true
	case "covaries":
		return phrase{"covaries with", "covaries with"}, true
	case "expresses":
		return phrase{"expresses", "is expressed in"}, true
	case "causes":
		return phrase{"causes", "is caused by"}, true
	case "has_symptom":
		return phrase{"has the symptom", "is a symptom of"}, true
	case "diagnosed_by":
		return phrase{"is diagnosed by", "is used to diagnose"}, true
	case "risk_factor_for":
		return phrase{"is a risk factor for", "has the risk factor"}, true
	case "contraindicated_in":
		return phrase{"is contraindicated in", "contraindicates"}, true
	}
	return phrase{}, false
}

// chineseVerb is the Chinese template table (forward reading only: a
// Chinese clause always states an edge head first).
func chineseVerb(rel string) (string, bool) {
	switch rel {
	case "composition", "HAS_HERB":
		return "组成包含", true
	case "prescription_type":
		return "对应处方", true
	case "DIS2SYN", "HAS_SYNDROME":
		return "常见证型", true
	case "SYN2FOR":
		return "主方为", true
	case "SYN2THE":
		return "治法为", true
	case "HAS_THERAPY":
		return "功效为", true
	case "HAS_PROPERTY":
		return "药性为", true
	case "MERIDIAN":
		return "归", true
	case "HAS_INGREDIENT":
		return "含成分", true
	}
	return "", false
}

// chineseType labels the English types of the TCM data in Chinese; other
// types keep their name.
func chineseType(t string) string {
	switch t {
	case "Formula":
		return "方剂"
	case "Herb":
		return "中药"
	case "Syndrome":
		return "证候"
	case "Disease":
		return "疾病"
	case "Therapy":
		return "治法"
	case "Symptom":
		return "症状"
	case "Ingredient", "Ingeredient":
		return "成分"
	case "HerbProperty":
		return "药性"
	case "Meridian":
		return "经络"
	}
	return typeWords(t)
}
