package graph

import (
	"strings"
	"unicode"
)

// Text renders the path as a line of evidence text in the language of its
// entity names: Chinese when any name contains a Han character, else
// English (see TextIn).
func (p Path) Text() string { return p.TextIn(p.chinese()) }

// TextIn renders the path as sentences in Chinese or English, whatever
// the language of its names (a query in English about the TCM graph reads
// English sentences with Chinese names). Names stand alone, without
// their types, which a path's provenance keeps:
//
//	Metformin binds PRKAA1, which is associated with type 2 diabetes mellitus
//	myocardial infarction has the symptom chest pain
//	荆防败毒散组成包含荆芥；人参败毒散组成包含荆芥
//	胃癌的症状包括黑便
//
// English chains clauses with "which"; Chinese states each edge in its
// own direction, head first, separated by "；". A relation without a
// template reads as its name (underscores as spaces): in Chinese between
// the names (spaced unless the relation is itself Chinese, as 导致 is),
// and an English backward step as "..., which N rel". Runs of white space
// in names, line breaks included, read as one space: the text is one
// line, as a packed context needs (a name is free text from the graph's
// source).
func (p Path) TextIn(chinese bool) string {
	return strings.Join(strings.Fields(p.text(chinese)), " ")
}

func (p Path) text(chinese bool) string {
	if len(p.Relations) == 0 || len(p.Nodes) != len(p.Relations)+1 {
		if len(p.Nodes) == 0 {
			return ""
		}
		return p.Nodes[0].Name
	}
	if chinese {
		return p.chineseText()
	}
	return p.englishText()
}

func (p Path) chinese() bool {
	for _, n := range p.Nodes {
		if hasHan(n.Name) {
			return true
		}
	}
	return false
}

func hasHan(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
}

func (p Path) englishText() string {
	var b strings.Builder
	b.WriteString(p.Nodes[0].Name)
	for i, rel := range p.Relations {
		next := p.Nodes[i+1].Name
		ph, ok := englishPhrase(rel)
		if i > 0 || (p.Reverse[i] && !ok) {
			b.WriteString(", which ")
		} else {
			b.WriteString(" ")
		}
		switch {
		case !ok && p.Reverse[i]: // "X, which Y associates"
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

func (p Path) chineseText() string {
	clauses := make([]string, len(p.Relations))
	for i, rel := range p.Relations {
		head, tail := p.Nodes[i].Name, p.Nodes[i+1].Name
		if p.Reverse[i] {
			head, tail = tail, head
		}
		clauses[i] = chineseClause(rel, head, tail)
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
	case "composition", "HAS_HERB":
		return phrase{"contains the herb", "is an ingredient of"}, true
	case "prescription_type":
		return phrase{"is prescribed as", "is the prescription of"}, true
	case "DIS2SYN", "HAS_SYNDROME":
		return phrase{"presents as the syndrome", "is a syndrome of"}, true
	case "SYN2FOR":
		return phrase{"is treated by the formula", "treats the syndrome"}, true
	case "SYN2THE", "HAS_THERAPY":
		return phrase{"calls for the therapy", "is the therapy of"}, true
	case "HAS_PROPERTY":
		return phrase{"has the property", "is a property of"}, true
	case "MERIDIAN":
		return phrase{"enters the meridian", "is entered by"}, true
	case "HAS_INGREDIENT":
		return phrase{"contains the compound", "is a compound of"}, true
	}
	return phrase{}, false
}

// chineseClause states the edge head -rel-> tail in Chinese, by the
// template table; a relation without one reads as its name between the
// names.
func chineseClause(rel, head, tail string) string {
	switch rel {
	case "composition", "HAS_HERB":
		return head + "组成包含" + tail
	case "prescription_type":
		return head + "对应处方" + tail
	case "DIS2SYN", "HAS_SYNDROME":
		return head + "常见证型为" + tail
	case "SYN2FOR":
		return head + "主方为" + tail
	case "SYN2THE":
		return head + "治法为" + tail
	case "HAS_THERAPY":
		return head + "功效为" + tail
	case "HAS_PROPERTY":
		return head + "药性为" + tail
	case "MERIDIAN":
		return head + "归" + tail
	case "HAS_INGREDIENT":
		return head + "含成分" + tail
	case "has_symptom":
		return head + "的症状包括" + tail
	case "treats":
		return head + "可治疗" + tail
	case "causes":
		return head + "可导致" + tail
	case "risk_factor_for":
		return head + "是" + tail + "的危险因素"
	case "diagnosed_by":
		return head + "可通过" + tail + "诊断"
	case "contraindicated_in":
		return head + "禁用于" + tail
	}
	if hasHan(rel) {
		return head + rel + tail
	}
	return head + " " + typeWords(rel) + " " + tail
}
