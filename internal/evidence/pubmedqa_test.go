package evidence

import (
	"context"
	"reflect"
	"strconv"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/medkb/medkb/internal/shareddata"
)

func TestRestsOn(t *testing.T) {
	an, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		t.Fatal(err)
	}
	sentences := []string{
		"Hirschsprung disease is treated by a pull-through operation.",                                        // pull: one term
		"We compared the transanal and the abdominal approach in 48 children.",                                // children, once 2 covers the rest
		"Continence scores were better after the abdominal approach, stool patterns after the transanal one.", // the most conclusion terms
		"Enterocolitis was seen in 4 children of each group; the weather in the region was mild throughout the years of follow-up, the nursing staff changed twice, and the hospital moved to a new building downtown.", // 3 of its terms: under MinShare
	}
	conclusion := "Continence was better after the abdominal approach and stool patterns after the transanal pull-through; enterocolitis did not differ between groups of children."
	for _, tt := range []struct {
		question string
		want     []int
	}{
		{"Is the abdominal pull-through better than the transanal one?", []int{2}},
		// Words the question already uses are not what the answer rests on.
		{"Are continence and stool patterns better after the abdominal approach?", nil},
	} {
		if got := restsOn(an, conclusion, tt.question, sentences); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: rests on %v, want %v", tt.question, got, tt.want)
		}
	}
}

func TestPubMedQA(t *testing.T) {
	path := shareddata.Path(t, "pubmedqa", "ori_pqal.json")
	if testing.Short() {
		t.Skip("derives questions from 1,000 PubMedQA abstracts")
	}
	set, stats, err := PubMedQA(path, 10)
	if err != nil {
		t.Fatal(err)
	}
	// The derivation is pinned: a change to the rule, the analyzer or
	// the sentence splitter shows here first.
	if stats.Abstracts != 1000 || stats.Sentences != len(set.Docs) || !reflect.DeepEqual(stats.ByEvidence, []int{298, 504, 173, 25}) || stats.Sampled != 10 {
		t.Errorf("stats %+v over %d documents", stats, len(set.Docs))
	}
	cfg := Config{Windows: []int{64, 256}, Strategies: []string{"ebm", "fifo"}}
	rep, err := Run(context.Background(), set, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Warnings) > 0 {
		t.Errorf("warnings: %q", rep.Warnings)
	}
	// A sentence is one chunk and quoted whole: no strategy packs it
	// for less than the oracle, which therefore bounds every one.
	for _, q := range rep.PerQuestion {
		for _, w := range cfg.Windows {
			win := strconv.Itoa(w)
			for _, s := range cfg.Strategies {
				if q.Recall[s][win] > q.Recall[OracleWhole][win] {
					t.Errorf("%s at %d: %s recalls %v, above the oracle's %v", q.ID, w, s, q.Recall[s][win], q.Recall[OracleWhole][win])
				}
			}
		}
	}
}
