package clinical

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func conceptNames(q Question) string {
	var names []string
	for _, c := range q.Concepts {
		names = append(names, c.Name+"="+c.Words)
	}
	return strings.Join(names, ",")
}

// TestReadQuestion: scaffolding and, about one record, generic words are
// blanked out of the topic; concepts are found and blanked too.
func TestReadQuestion(t *testing.T) {
	for _, tc := range []struct {
		q        string
		record   bool
		topic    string
		generic  bool
		concepts string
	}{
		{"该病人的血常规结果如何？", true, "的 ？", false, "blood count=血常规"},
		{"简述该病人的诊断及诊断依据", true, "的 及", true, ""},
		{"Summarise the findings.", true, "the  .", true, ""},
		{"Is irritable bowel syndrome a diagnosis of exclusion?", false, "Is irritable bowel syndrome a diagnosis of exclusion?", true, ""},
		{"What was his troponin when he came in?", true, "What was his   when he  in?", false, "myocardial injury=troponin"},
		{"penicillin allergy", false, "penicillin", false, "allergy=allergy"},
		{"肾功能怎么样？", true, "？", false, "kidney function=肾功能"},
		{"how to adjust bicycle brakes and chain tension", false, "how to adjust bicycle brakes and chain tension", false, ""},
	} {
		got := ReadQuestion(tc.q, tc.record)
		if strings.Join(strings.Fields(got.Topic), " ") != strings.Join(strings.Fields(tc.topic), " ") || got.Generic != tc.generic || conceptNames(got) != tc.concepts {
			t.Errorf("ReadQuestion(%q, %v) = topic %q generic %v concepts %q; want %q %v %q",
				tc.q, tc.record, got.Topic, got.Generic, conceptNames(got), tc.topic, tc.generic, tc.concepts)
		}
	}
}

// TestConceptMentions counts overlapping mentions once.
func TestConceptMentions(t *testing.T) {
	var anaemia *Concept
	for i := range Concepts {
		if Concepts[i].Name == "anaemia" {
			anaemia = &Concepts[i]
		}
	}
	for text, want := range map[string]int{
		"血常规：血红蛋白78g/L，平均红细胞体积72fL":      2,
		"Hemoglobin 9.1 g/dL, MCV 71 fL": 2,
		"主诉：上腹痛":                         0,
	} {
		if got := anaemia.Mentions(NewText(text)); got != want {
			t.Errorf("anaemia.Mentions(%q) = %d, want %d", text, got, want)
		}
	}
}

// FuzzReadQuestion: reading never panics, the topic is valid UTF-8 no
// longer than the question, and every concept's words occur in it.
func FuzzReadQuestion(f *testing.F) {
	for _, s := range []string{"该病人的血常规结果如何？", "Summarise the findings.", "allergies?", "", "肾功能 renal function 贫血"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, q string, record bool) {
		got := ReadQuestion(q, record)
		if len(got.Topic) > len(q) || utf8.ValidString(q) && !utf8.ValidString(got.Topic) {
			t.Fatalf("topic %q of %q", got.Topic, q)
		}
		for _, c := range got.Concepts {
			if !strings.Contains(q, c.Words) {
				t.Fatalf("concept %s named by %q, not in %q", c.Name, c.Words, q)
			}
		}
	})
}
