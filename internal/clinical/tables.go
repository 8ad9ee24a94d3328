package clinical

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// WriteTables writes TypeTable, TextRules, NarrativeCues and the
// vocabulary state B may drop (AdminVocabulary, GenericHeading) as
// Markdown, for docs/ingest.md (TestWriteTables).
func WriteTables(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| type | tier | also written | why |\n|---|---|---|---|\n")
	for _, e := range TypeTable {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", e.Type, e.Tier, strings.Join(e.Aliases, ", "), e.Note)
	}
	b.WriteString("\nWhen the type is missing or unknown, the first text rule that fires decides; none firing gives T4.\n\n")
	b.WriteString("| # | rule | tier | segment | fires on | except |\n|---|---|---|---|---|---|\n")
	for i, r := range TextRules {
		firesOn := r.Summary
		if firesOn == "" {
			firesOn = markdownTerms(r.Terms)
		}
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s |\n", i+1, r.Name, r.Tier, r.Segment, firesOn, r.Except)
	}
	b.WriteString("\nA text reads as a history narrative (rule narrative) when it has no report heading (Findings:, Specimen:, 检查所见：, 超声提示：) " +
		"and either a chief complaint's shape (at most 60 characters, its first or last clause ending in a duration, no number but durations and ages) " +
		"or cues of two of these kinds:\n\n")
	b.WriteString("| kind | cues |\n|---|---|\n")
	for _, c := range NarrativeCues {
		fmt.Fprintf(&b, "| %s | %s |\n", c.Kind, markdownTerms(c.Terms))
	}
	b.WriteString("\nState B drops a sentence made only of these words, numbers and punctuation, with at least two words and one of a group that marks it, and no key; and a generic heading that opens the text.\n\n")
	b.WriteString("| group | marks | English | Chinese |\n|---|---|---|---|\n")
	for _, g := range append(slices.Clip(AdminVocabulary), GenericHeading) {
		fmt.Fprintf(&b, "| %s | %v | %s | %s |\n", g.Name, g.Marks, strings.Join(g.Words, ", "), strings.Join(g.Zh, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// markdownTerms lists terms in code spans, escaping the table's pipes.
func markdownTerms(terms []string) string {
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = "`" + strings.ReplaceAll(t, "|", `\|`) + "`"
	}
	return strings.Join(quoted, ", ")
}
