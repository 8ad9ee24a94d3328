package text

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

func TestSentences(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"only space", " \n\t ", nil},
		{"two english", "Chest pain for 2 days. No fever.", []string{"Chest pain for 2 days.", "No fever."}},
		{"question and exclamation", "Is it cardiac? It is! Call now.", []string{"Is it cardiac?", "It is!", "Call now."}},
		{"semicolon", "Pulse 93/min; BP 125/85 mm Hg.", []string{"Pulse 93/min;", "BP 125/85 mm Hg."}},
		{"decimal", "Troponin 2.3 ng/mL and K 0.5 above normal.", []string{"Troponin 2.3 ng/mL and K 0.5 above normal."}},
		{"decimal at end", "Troponin rose to 2.3. Repeat at 6 h.", []string{"Troponin rose to 2.3.", "Repeat at 6 h."}},
		{"doctor", "Seen by Dr. Li today. Mr. Wang agrees.", []string{"Seen by Dr. Li today.", "Mr. Wang agrees."}},
		{"e.g. and i.e.", "Avoid beta-lactams, e.g. Penicillin, i.e. Amoxicillin. Next.", []string{"Avoid beta-lactams, e.g. Penicillin, i.e. Amoxicillin.", "Next."}},
		{"vs and approx", "Drug A vs. Drug B gave approx. 5 mg less. Done.", []string{"Drug A vs. Drug B gave approx. 5 mg less.", "Done."}},
		{"No. before number", "Admitted to bed No. 12 on ward 3. Stable.", []string{"Admitted to bed No. 12 on ward 3.", "Stable."}},
		{"no as a word", "She said no. Then she left.", []string{"She said no.", "Then she left."}},
		{"tokenised, lower case", "a toxin associated with alzheimer ’ s disease . without vitamin b12 , though , it could make things worse .", []string{"a toxin associated with alzheimer ’ s disease .", "without vitamin b12 , though , it could make things worse ."}},
		{"unit then lower case", "Creatinine 2.8 mg/dL. Urea 7 mmol/L. The dose was 5 mg. daily for a week.", []string{"Creatinine 2.8 mg/dL.", "Urea 7 mmol/L.", "The dose was 5 mg. daily for a week."}},
		{"mixed-case word starts a sentence", "ALT 28 U/L. eGFR 78 mL/min. pH 7.31.", []string{"ALT 28 U/L.", "eGFR 78 mL/min.", "pH 7.31."}},
		{"list numbering", "1. Chest pain\n2. Dyspnea on exertion\n10. Edema", []string{"1. Chest pain", "2. Dyspnea on exertion", "10. Edema"}},
		{"number ending a sentence mid line", "Bed 1. Next patient.", []string{"Bed 1.", "Next patient."}},
		{"newlines", "Laboratory studies show:\nHemoglobin 14 g/dL\r\nCreatinine 4.2 mg/dL", []string{"Laboratory studies show:", "Hemoglobin 14 g/dL", "Creatinine 4.2 mg/dL"}},
		{"closing quote", `He said "it hurts." Then he fainted.`, []string{`He said "it hurts."`, "Then he fainted."}},
		{"closing bracket", "Normal (see report.) Next.", []string{"Normal (see report.)", "Next."}},
		{"ellipsis", "He paused... Then spoke.", []string{"He paused...", "Then spoke."}},
		{"no space after period", "Value was 3.5.Next", []string{"Value was 3.5.Next"}},
		{"chinese", "患者胸痛2天。无发热！是否心源性？", []string{"患者胸痛2天。", "无发热！", "是否心源性？"}},
		{"chinese semicolon and ellipsis", "血压150/90mmHg；心率88次/分……建议复查。", []string{"血压150/90mmHg；", "心率88次/分……", "建议复查。"}},
		{"chinese decimal", "肌酐2.8mg/dL，尿素氮12.5mmol/L。", []string{"肌酐2.8mg/dL，尿素氮12.5mmol/L。"}},
		{"chinese closing quote", "患者诉“胸口像压了石头。”随后入院。", []string{"患者诉“胸口像压了石头。”", "随后入院。"}},
		{"ascii period before chinese", "CT示结节8mm.建议随访。", []string{"CT示结节8mm.", "建议随访。"}},
		{"chinese list numbering", "1.胸痛\n2.气促", []string{"1.胸痛", "2.气促"}},
		{"inline list numbering", "诊断意见：1.肺炎；2.胸腔积液。HR: 120. Irregular rhythm.", []string{"诊断意见：1.肺炎；", "2.胸腔积液。", "HR: 120.", "Irregular rhythm."}},
		{"mixed", "主诉：胸痛。Troponin 2.3 ng/mL. 心电图ST段抬高。", []string{"主诉：胸痛。", "Troponin 2.3 ng/mL.", "心电图ST段抬高。"}},
		{"full-width space trimmed", "　胸痛。　", []string{"胸痛。"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Sentences(tt.in)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Sentences(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			checkCover(t, tt.in, got)
		})
	}
}

// checkCover asserts the Sentences invariants: trimmed, non-empty
// substrings that cover the input's non-space characters in order.
func checkCover(t *testing.T, in string, pieces []string) {
	t.Helper()
	for _, p := range pieces {
		if p == "" || p != strings.TrimSpace(p) || !strings.Contains(in, p) {
			t.Fatalf("piece %q is empty, untrimmed or not a substring of %q", p, in)
		}
	}
	if got, want := stripSpace(strings.Join(pieces, "")), stripSpace(in); got != want {
		t.Fatalf("pieces do not cover the input:\n got %q\nwant %q", got, want)
	}
}

// stripSpace drops white space and keeps every other byte as it is, so
// that invalid UTF-8 compares byte for byte.
func stripSpace(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// TestSentencesLongInput splits a megabyte in each shape that once made
// a rule rescan what it had passed: list numbers on one long indented line
// (each trimmed the line's indent again: minutes), and runs of
// terminators, abbreviations and tiny sentences. Each takes milliseconds;
// the limit only catches a return to quadratic time.
func TestSentencesLongInput(t *testing.T) {
	for _, in := range []string{
		strings.Repeat(" ", 1<<19) + strings.Repeat("1. A ", 1<<19/5),
		strings.Repeat("a", 1<<19) + strings.Repeat(". ", 1<<18),
		strings.Repeat("e.g. ", 1<<20/5),
		strings.Repeat("Dr. ", 1<<18),
		strings.Repeat("1.", 1<<19),
		strings.Repeat("。”", 1<<18),
	} {
		start := time.Now()
		got := Sentences(in)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%q... (%d bytes): %d sentences in %v", in[len(in)-12:], len(in), len(got), d)
		}
	}
}

func FuzzSentences(f *testing.F) {
	for _, s := range []string{
		"Chest pain. No fever.", "1. a\n2. b", "e.g. X. Dr. Y.", "患者胸痛。无发热！",
		"肌酐2.8mg/dL；", "He said \"no.\" Then…", "\xff.\xfe。", "...;;??!!",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Medkb's text is valid UTF-8 (JSON decoding makes it so); on other
		// input two invalid bytes on either side of a removed space can
		// join into a valid character, which the cover check cannot allow.
		s = strings.ToValidUTF8(s, "\uFFFD")
		checkCover(t, s, Sentences(s))
	})
}
